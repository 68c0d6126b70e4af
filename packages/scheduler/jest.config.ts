export default {
  displayName: 'scheduler',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
