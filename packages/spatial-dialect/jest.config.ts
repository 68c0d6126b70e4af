export default {
  displayName: 'spatial-dialect',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
