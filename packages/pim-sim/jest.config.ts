export default {
  displayName: 'pim-sim',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
