export default {
  displayName: 'pim-dialect',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
