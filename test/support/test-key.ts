/** The API key the test devnets know, and the variable the tests' pipeline files and CLI runs read it from. */
export const KEY = 'gw5jbsYPTAxmEbf2jSteGM4vHT38LW9L';
export const KEY_ENV = 'CHAIN_ETL_TEST_KEY';
