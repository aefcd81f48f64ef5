/** The session map where a single server keeps it: the SQLite task store, or its own file. */
import { localTarget, storeTarget } from "../../support/session-map-targets.js";
import { sessionMapCases } from "../../support/session-map-cases.js";

sessionMapCases("the memory store's own file", localTarget());
sessionMapCases("the SQLite task store", storeTarget("sqlite"));
