// Mantine's mixins and rem() helpers in CSS files (https://mantine.dev/styles/postcss-preset/).
module.exports = {
  plugins: {
    'postcss-preset-mantine': {},
  },
};
