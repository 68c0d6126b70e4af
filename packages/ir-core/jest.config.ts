export default {
  displayName: 'ir-core',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
