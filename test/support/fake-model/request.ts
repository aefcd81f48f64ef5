export * from "../../../src/demo/fake-model/request.js";
