// The scripted model is shipped code (`npm run demo` runs it after a global install): the tests
// import it from src/demo/fake-model/ through these re-exports.
export * from "../../../src/demo/fake-model/index.js";
