export default {
  displayName: 'compact-asm',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
