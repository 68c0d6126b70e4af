export default {
  displayName: 'pim-target',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
