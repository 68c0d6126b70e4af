export default {
  displayName: 'layout-planner',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
