/**
 * The version the servers report (the UI's bootstrap, spans' service.version, the User-Agent of
 * upstream calls). A constant rather than a read of package.json, which a bundled desktop app does not
 * ship beside its code; test/foundation/version.test.ts keeps the two equal.
 */
export const GATEHOUSE_VERSION = '0.1.0';
