export default {
  displayName: 'codegen',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
