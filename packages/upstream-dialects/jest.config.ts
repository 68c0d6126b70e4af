export default {
  displayName: 'upstream-dialects',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
