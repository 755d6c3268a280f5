/** Numbers shaped like mainnet's (see test/fixtures/examples). */
export const GENESIS_UTIME = 1_767_225_600; // 2026-01-01T00:00:00Z
export const FIRST_MC_SEQNO = 50_000_000;
export const FIRST_SHARD_SEQNO = 55_000_000;
/** Every block's start_lt is aligned to 1,000,000, as on mainnet. */
export const LT_PER_BLOCK = 1_000_000;
export const FIRST_START_LT = 60_000_000_000_000;

export const MASTERCHAIN_SHARD = '8000000000000000';
/** Workchain 0 runs split in two shards; an account lives in the one its id's top bit selects. */
export const BASECHAIN_SHARDS = ['4000000000000000', 'C000000000000000'] as const;

export const ELECTOR_RAW = '-1:' + '3'.repeat(64);
export const CONFIG_RAW = '-1:' + '5'.repeat(64);

/** Masterchain blocks per validation cycle; elections of cycle c open at its start and stakes return two cycles later. */
export const CYCLE_BLOCKS = 100;
export const VALIDATOR_COUNT = 9;

export const TON = 1_000_000_000n;

/** wallet_id (subwallet id) every devnet wallet signs its externals with, as the generator's bodies carry it. */
export const SUBWALLET_ID = 698_983_191;
