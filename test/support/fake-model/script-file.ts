export * from "../../../src/demo/fake-model/script-file.js";
