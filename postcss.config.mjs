// Tailwind CSS 4 through its PostCSS plugin.
export default { plugins: { "@tailwindcss/postcss": {} } };
