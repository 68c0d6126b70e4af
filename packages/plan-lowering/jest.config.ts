export default {
  displayName: 'plan-lowering',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
