/**
 * Downsampling of time series for display (an intraday chart
 * draws at most about 1,500 points however many the API returns).
 *
 * Largest-Triangle-Three-Buckets (Steinarsson 2013) keeps the visual shape;
 * on top of it the global minimum and maximum are always kept, because for a
 * balance the lowest and highest point of the day are what a treasurer looks
 * for, and plain LTTB may drop a one-point spike.
 *
 * The numeric `x` / `y` the caller supplies are for geometry only (pixel
 * positions); the returned items are the caller's own objects, so tooltips
 * still show the exact decimal strings.
 */

/** Accessors that give an item's position: `x` (e.g. epoch ms, ascending) and `y` (e.g. balance as a number). */
export interface SeriesAccessors<T> {
  x: (item: T) => number;
  y: (item: T) => number;
}

function lttbIndices<T>(items: readonly T[], threshold: number, acc: SeriesAccessors<T>): number[] {
  const n = items.length;
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const it = items[i] as T;
    xs[i] = acc.x(it);
    ys[i] = acc.y(it);
  }
  const picked: number[] = [0];
  // Buckets between the fixed first and last point.
  const every = (n - 2) / (threshold - 2);
  let a = 0;
  for (let b = 0; b < threshold - 2; b++) {
    // Average of the next bucket: the third corner of the triangle.
    const nextStart = Math.floor((b + 1) * every) + 1;
    const nextEnd = Math.min(Math.floor((b + 2) * every) + 1, n);
    let avgX = 0;
    let avgY = 0;
    const len = Math.max(nextEnd - nextStart, 1);
    for (let j = nextStart; j < nextEnd; j++) {
      avgX += xs[j] ?? 0;
      avgY += ys[j] ?? 0;
    }
    if (nextEnd <= nextStart) {
      avgX = xs[n - 1] ?? 0;
      avgY = ys[n - 1] ?? 0;
    } else {
      avgX /= len;
      avgY /= len;
    }
    const start = Math.floor(b * every) + 1;
    const end = Math.floor((b + 1) * every) + 1;
    const ax = xs[a] ?? 0;
    const ay = ys[a] ?? 0;
    let best = start;
    let bestArea = -1;
    for (let j = start; j < end; j++) {
      const area = Math.abs((ax - avgX) * ((ys[j] ?? 0) - ay) - (ax - (xs[j] ?? 0)) * (avgY - ay));
      if (area > bestArea) {
        bestArea = area;
        best = j;
      }
    }
    picked.push(best);
    a = best;
  }
  picked.push(n - 1);
  return picked;
}

/**
 * Reduces `items` to at most `threshold` items (LTTB, plus the global min and
 * max of `y`), in their original order. Returns `items` itself when it is
 * already small enough.
 * @param items series sorted by `x` ascending
 * @param threshold maximum number of items to return; at least 4
 * @throws RangeError when `threshold` is below 4 or not an integer
 */
export function downsample<T>(items: readonly T[], threshold: number, acc: SeriesAccessors<T>): readonly T[] {
  if (!Number.isInteger(threshold) || threshold < 4) throw new RangeError("threshold must be an integer of at least 4");
  if (items.length <= threshold) return items;
  // Two slots are reserved for the extremes, so the result never exceeds the threshold.
  const picked = new Set(lttbIndices(items, threshold - 2, acc));
  let minI = 0;
  let maxI = 0;
  for (let i = 1; i < items.length; i++) {
    const v = acc.y(items[i] as T);
    if (v < acc.y(items[minI] as T)) minI = i;
    if (v > acc.y(items[maxI] as T)) maxI = i;
  }
  picked.add(minI);
  picked.add(maxI);
  return [...picked].sort((p, q) => p - q).map((i) => items[i] as T);
}
