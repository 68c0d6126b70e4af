export default {
  displayName: 'spatial-to-pim',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
