export default {
  displayName: 'compiler',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
