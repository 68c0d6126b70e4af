export default {
  displayName: 'onnx-frontend',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
};
