export default {
  displayName: 'bufferization',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
