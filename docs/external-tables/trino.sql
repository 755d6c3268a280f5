-- Trino (Hive connector): the chain-etl Parquet warehouse as external tables. Generated from the table
-- definitions by `npm run generate` (scripts/external-tables.ts); do not edit.
-- Replace s3://your-bucket/chain-etl with where the warehouse folder is. Read docs/external-tables.md first: an
-- engine that lists the folders also sees files the manifest does not list.
-- Run in a Trino catalog named hive with a schema chain_etl; then, after every sync that adds a day,
-- CALL hive.system.sync_partition_metadata('chain_etl', '<table>', 'ADD') (written after each table).
-- Hive tables have no TIMESTAMP WITH TIME ZONE: the files hold UTC instants (isAdjustedToUTC);
-- set hive.parquet.time-zone = 'UTC' in the catalog so that they read as UTC times.

CREATE TABLE hive.chain_etl."transactions" (
  "tx_hash" VARCHAR COMMENT 'Transaction hash (base64), the API form and the key.',
  "tx_hash_hex" VARCHAR COMMENT 'The same hash in lower-case hex, as explorers print it.',
  "account" VARCHAR COMMENT 'Account the transaction ran on.',
  "tx_lt" BIGINT COMMENT 'Logical time of the transaction; unique per account, not across accounts.',
  "tx_time" TIMESTAMP(6) COMMENT 'Block time of the transaction (epoch(tx_time) gives the unix seconds of the API utime filters).',
  "block_date" DATE COMMENT 'UTC day of tx_time.',
  "mc_block_seqno" INTEGER COMMENT 'Masterchain block that committed the transaction (null while not committed).',
  "block_workchain" INTEGER COMMENT 'Workchain of the block holding the transaction.',
  "block_shard" VARCHAR COMMENT 'Shard of that block as unsigned hex, e.g. 8000000000000000.',
  "block_seqno" INTEGER COMMENT 'Seqno of that block in its shard.',
  "trace_id" VARCHAR COMMENT 'Trace (tree of transactions caused by one external message) it belongs to.',
  "trace_external_hash" VARCHAR COMMENT 'Hash of the external message that started the trace, when there is one.',
  "prev_tx_hash" VARCHAR COMMENT 'Hash of the account''s previous transaction (all zero bytes for the first).',
  "prev_tx_lt" BIGINT COMMENT 'Logical time of the account''s previous transaction (0 for the first).',
  "orig_status" VARCHAR COMMENT 'Account status before: uninit, frozen, active or nonexist.',
  "end_status" VARCHAR COMMENT 'Account status after: uninit, frozen, active or nonexist.',
  "total_fees" DECIMAL(38,0) COMMENT 'Total fees paid, nanoton.',
  "descr_type" VARCHAR COMMENT 'Transaction kind: ord, storage, tick_tock, split_prepare, split_install, merge_prepare, merge_install.',
  "aborted" BOOLEAN COMMENT 'The transaction was aborted (its state changes were rolled back).',
  "destroyed" BOOLEAN COMMENT 'The account was destroyed by the transaction.',
  "credit_first" BOOLEAN COMMENT 'Credit phase ran before the storage phase (non-bounceable inbound message).',
  "is_tock" BOOLEAN COMMENT 'Tick-tock transactions: true for tock, false for tick.',
  "installed" BOOLEAN COMMENT 'Split/merge install transactions: whether it was installed.',
  "storage_fees_collected" DECIMAL(38,0) COMMENT 'Storage phase: fees collected, nanoton.',
  "storage_fees_due" DECIMAL(38,0) COMMENT 'Storage phase: fees left due, nanoton.',
  "storage_status_change" VARCHAR COMMENT 'Storage phase: unchanged, frozen or deleted.',
  "due_fees_collected" DECIMAL(38,0) COMMENT 'Credit phase: due fees collected, nanoton.',
  "credit" DECIMAL(38,0) COMMENT 'Credit phase: value credited to the account, nanoton.',
  "compute_skipped" BOOLEAN COMMENT 'Compute phase was skipped.',
  "compute_skip_reason" VARCHAR COMMENT 'Why it was skipped: no_state, bad_state, no_gas, suspended.',
  "compute_success" BOOLEAN COMMENT 'Compute phase succeeded.',
  "compute_account_activated" BOOLEAN COMMENT 'Compute phase activated the account (deployed its code).',
  "compute_exit_code" INTEGER COMMENT 'TVM exit code (0 and 1 mean success).',
  "compute_exit_arg" INTEGER COMMENT 'TVM exit argument, when the contract threw one.',
  "compute_gas_used" BIGINT COMMENT 'Gas used.',
  "compute_gas_limit" BIGINT COMMENT 'Gas limit.',
  "compute_gas_credit" BIGINT COMMENT 'Gas credit (external messages).',
  "compute_gas_fees" DECIMAL(38,0) COMMENT 'Gas fees, nanoton.',
  "compute_vm_steps" BIGINT COMMENT 'TVM steps executed.',
  "compute_mode" INTEGER COMMENT 'TVM mode.',
  "action_success" BOOLEAN COMMENT 'Action phase succeeded.',
  "action_valid" BOOLEAN COMMENT 'Action list was valid.',
  "action_no_funds" BOOLEAN COMMENT 'Action phase ran out of funds.',
  "action_result_code" INTEGER COMMENT 'Action phase result code (0 = ok).',
  "action_result_arg" INTEGER COMMENT 'Action phase result argument.',
  "action_tot_actions" INTEGER COMMENT 'Actions in the action list.',
  "action_skipped_actions" INTEGER COMMENT 'Actions skipped.',
  "action_msgs_created" INTEGER COMMENT 'Outbound messages created.',
  "action_total_fwd_fees" DECIMAL(38,0) COMMENT 'Forwarding fees of the outbound messages, nanoton.',
  "action_total_action_fees" DECIMAL(38,0) COMMENT 'Action fees, nanoton.',
  "action_status_change" VARCHAR COMMENT 'Action phase status change: unchanged, frozen or deleted.',
  "bounce_type" VARCHAR COMMENT 'Bounce phase: negfunds, nofunds or ok.',
  "bounce_req_fwd_fees" DECIMAL(38,0) COMMENT 'Bounce phase: forwarding fees required, nanoton.',
  "bounce_msg_fees" DECIMAL(38,0) COMMENT 'Bounce phase: message fees, nanoton.',
  "bounce_fwd_fees" DECIMAL(38,0) COMMENT 'Bounce phase: forwarding fees, nanoton.',
  "balance_before" DECIMAL(38,0) COMMENT 'Account balance before, nanoton (null when the account did not exist).',
  "balance_after" DECIMAL(38,0) COMMENT 'Account balance after, nanoton.',
  "status_before" VARCHAR COMMENT 'Account status in the state before (null when the account did not exist).',
  "status_after" VARCHAR COMMENT 'Account status in the state after.',
  "state_hash_before" VARCHAR COMMENT 'Hash of the account state before.',
  "state_hash_after" VARCHAR COMMENT 'Hash of the account state after.',
  "code_hash_after" VARCHAR COMMENT 'Hash of the account code after (active accounts).',
  "data_hash_after" VARCHAR COMMENT 'Hash of the account data after (active accounts).',
  "in_msg_hash" VARCHAR COMMENT 'Hash of the inbound message (null for tick-tock and other transactions without one).',
  "out_msg_count" INTEGER COMMENT 'Outbound messages the transaction sent.',
  "finality" VARCHAR COMMENT 'pending, confirmed or finalized; unknown values kept as sent (e.g. unknown_3); null when the API sent none.',
  "emulated" BOOLEAN COMMENT 'The API served an emulated (not yet committed) transaction.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per transaction, with its description phases and the account state before and after it.'
WITH (
  external_location = 's3://your-bucket/chain-etl/transactions',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'transactions', 'ADD');

CREATE TABLE hive.chain_etl."messages" (
  "tx_hash" VARCHAR COMMENT 'Transaction the message belongs to (joins transactions.tx_hash).',
  "direction" VARCHAR COMMENT 'in (the message the transaction received) or out (a message it sent).',
  "msg_hash" VARCHAR COMMENT 'Message hash (base64).',
  "tx_lt" BIGINT COMMENT 'Logical time of the transaction.',
  "tx_time" TIMESTAMP(6) COMMENT 'Block time of the transaction.',
  "block_date" DATE COMMENT 'UTC day of tx_time.',
  "trace_id" VARCHAR COMMENT 'Trace of the transaction.',
  "source" VARCHAR COMMENT 'Sender; null for an external inbound message.',
  "destination" VARCHAR COMMENT 'Receiver; null for an external outbound message (log).',
  "value" DECIMAL(38,0) COMMENT 'Value carried, nanoton; null for external messages.',
  "fwd_fee" DECIMAL(38,0) COMMENT 'Forwarding fee, nanoton.',
  "ihr_fee" DECIMAL(38,0) COMMENT 'Instant hypercube routing fee, nanoton.',
  "import_fee" DECIMAL(38,0) COMMENT 'Import fee of an external inbound message, nanoton.',
  "created_lt" BIGINT COMMENT 'Logical time the message was created at; null for external inbound messages.',
  "created_time" TIMESTAMP(6) COMMENT 'Time the message was created at; null for external inbound messages.',
  "opcode" BIGINT COMMENT 'First 32 bits of the body as an unsigned integer (0 … 4294967295), e.g. 260734629 for 0x0f8a7ea5 (printf(''0x%08x'', opcode) prints the hex form); null when the body is shorter.',
  "decoded_opcode" VARCHAR COMMENT 'Name the indexer gives the opcode, e.g. jetton_transfer, text_comment.',
  "bounce" BOOLEAN COMMENT 'Bounceable message.',
  "bounced" BOOLEAN COMMENT 'The message is a bounce of an earlier one.',
  "ihr_disabled" BOOLEAN COMMENT 'Instant hypercube routing disabled.',
  "body_hash" VARCHAR COMMENT 'Hash of the body cell.',
  "body" VARCHAR COMMENT 'Body as a base64 BoC, as the API sends it: decode any opcode later without refetching.',
  "comment" VARCHAR COMMENT 'Text comment: the body decoded when it is opcode 0 followed by text; null otherwise (also for encrypted comments).',
  "init_state_hash" VARCHAR COMMENT 'Hash of the StateInit the message carries (deploys); its BoC is not stored.',
  "msg_hash_norm" VARCHAR COMMENT 'Normalised hash of an external inbound message (stable across re-signing wallets).',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per message of a transaction: its inbound message (direction in) and each outbound one (direction out). An internal message appears twice, as out of the sending transaction and as in of the receiving one.'
WITH (
  external_location = 's3://your-bucket/chain-etl/messages',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'messages', 'ADD');

CREATE TABLE hive.chain_etl."actions" (
  "action_id" VARCHAR COMMENT 'Action id: sha256 of the root message hash and the type (changes when the type does).',
  "trace_id" VARCHAR COMMENT 'Trace the action was found in; the unit of replacement.',
  "type" VARCHAR COMMENT 'Action type, e.g. ton_transfer, jetton_transfer, jetton_swap; new types load as they come.',
  "success" BOOLEAN COMMENT 'Whether the action succeeded.',
  "start_lt" BIGINT COMMENT 'Logical time of its first transaction.',
  "end_lt" BIGINT COMMENT 'Logical time of its last transaction.',
  "start_time" TIMESTAMP(6) COMMENT 'Time of its first transaction.',
  "end_time" TIMESTAMP(6) COMMENT 'Time of its last transaction.',
  "trace_end_lt" BIGINT COMMENT 'Logical time at which the whole trace completed: the position the stream pages by.',
  "trace_end_time" TIMESTAMP(6) COMMENT 'Time at which the whole trace completed.',
  "block_date" DATE COMMENT 'UTC day of trace_end_time.',
  "trace_mc_seqno_end" INTEGER COMMENT 'Masterchain block in which the trace completed.',
  "trace_external_hash" VARCHAR COMMENT 'Hash of the external message that started the trace.',
  "trace_external_hash_norm" VARCHAR COMMENT 'Normalised hash of that external message.',
  "tx_hashes" ARRAY(VARCHAR) COMMENT 'Hashes (base64) of the transactions making up the action.',
  "source" VARCHAR COMMENT 'Initiating side, lifted from details: sender, owner, old owner or stake holder; null when the type has none.',
  "destination" VARCHAR COMMENT 'Receiving side, lifted from details: destination, receiver, new owner, pool or the ticked account.',
  "asset" VARCHAR COMMENT 'What moved: the jetton master of jetton actions, the NFT item of NFT actions; null for TON.',
  "amount" DECIMAL(38,0) COMMENT 'How much moved in base units (nanoton when asset is null, jetton units for a jetton); null for NFTs and other types.',
  "comment" VARCHAR COMMENT 'Text comment of a transfer (null when encrypted or absent).',
  "details" VARCHAR COMMENT 'The full type-specific details object as the API sent it.',
  "finality" VARCHAR COMMENT 'pending, confirmed or finalized; unknown values kept as sent.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per action the indexer classified in a completed trace (a transfer, a swap, a deposit…). A trace is replaced as a whole whenever it is read again, so re-classified traces leave no stale actions.'
WITH (
  external_location = 's3://your-bucket/chain-etl/actions',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'actions', 'ADD');

CREATE TABLE hive.chain_etl."action_accounts" (
  "action_id" VARCHAR COMMENT 'The action (joins actions.action_id).',
  "account" VARCHAR COMMENT 'An account the action involves.',
  "trace_id" VARCHAR COMMENT 'Trace of the action; rows are replaced per trace like actions.',
  "trace_end_lt" BIGINT COMMENT 'Logical time at which the trace completed.',
  "trace_end_time" TIMESTAMP(6) COMMENT 'Time at which the trace completed.',
  "block_date" DATE COMMENT 'UTC day of trace_end_time.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per account an action involves (wallets, jetton wallets, masters, pools…): the way to find the actions of an account.'
WITH (
  external_location = 's3://your-bucket/chain-etl/action_accounts',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'action_accounts', 'ADD');

CREATE TABLE hive.chain_etl."jetton_transfers" (
  "tx_hash" VARCHAR COMMENT 'Transaction of the sending jetton wallet that processed the transfer (the key).',
  "tx_lt" BIGINT COMMENT 'Logical time of that transaction.',
  "tx_time" TIMESTAMP(6) COMMENT 'Block time of that transaction.',
  "block_date" DATE COMMENT 'UTC day of tx_time.',
  "tx_aborted" BOOLEAN COMMENT 'Whether it was aborted (always false: the endpoint skips aborted ones; null in 2024-format responses).',
  "query_id" DECIMAL(20,0) COMMENT 'Query id the sender chose (u64).',
  "jetton_master" VARCHAR COMMENT 'Jetton master (the token).',
  "source" VARCHAR COMMENT 'Owner of the sending jetton wallet.',
  "destination" VARCHAR COMMENT 'Owner the jettons were sent to.',
  "source_wallet" VARCHAR COMMENT 'Sending jetton wallet.',
  "amount" DECIMAL(38,0) COMMENT 'Amount in raw jetton units (divide by 10^decimals of the jetton for display), exact.',
  "response_destination" VARCHAR COMMENT 'Where the excess TON goes.',
  "forward_ton_amount" DECIMAL(38,0) COMMENT 'TON forwarded to the destination owner with the notification, nanoton.',
  "forward_payload" VARCHAR COMMENT 'Forward payload as a base64 BoC.',
  "comment" VARCHAR COMMENT 'Text comment of the forward payload (opcode 0 + text), decoded.',
  "custom_payload" VARCHAR COMMENT 'Custom payload as a base64 BoC.',
  "trace_id" VARCHAR COMMENT 'Trace of the transfer.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per jetton transfer, keyed by the transaction of the sending jetton wallet. Amounts are raw jetton units (not scaled by decimals).'
WITH (
  external_location = 's3://your-bucket/chain-etl/jetton_transfers',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'jetton_transfers', 'ADD');

CREATE TABLE hive.chain_etl."validator_events" (
  "tx_hash" VARCHAR COMMENT 'Elector transaction that produced the event.',
  "type" VARCHAR COMMENT 'stake_accepted, stake_rejected or stake_recovered (other values kept as sent).',
  "stake_holder" VARCHAR COMMENT 'Wallet or pool that staked or recovered.',
  "tx_lt" BIGINT COMMENT 'Logical time of the elector transaction.',
  "tx_time" TIMESTAMP(6) COMMENT 'Time of the elector transaction.',
  "block_date" DATE COMMENT 'UTC day of tx_time.',
  "validator_pubkey" VARCHAR COMMENT 'Validator public key (hex), for stake events.',
  "adnl_addr" VARCHAR COMMENT 'Validator ADNL address (hex), for stake events.',
  "election_id" BIGINT COMMENT 'Election id (the unix time the validation round starts).',
  "query_id" DECIMAL(20,0) COMMENT 'Query id of the elector message (u64).',
  "amount" DECIMAL(38,0) COMMENT 'Stake amount, nanoton.',
  "reason" INTEGER COMMENT 'Elector reason code of a rejected stake.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per stake event of the elector: a stake accepted or rejected, or a stake recovered.'
WITH (
  external_location = 's3://your-bucket/chain-etl/validator_events',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'validator_events', 'ADD');

CREATE TABLE hive.chain_etl."blocks" (
  "workchain" INTEGER COMMENT 'Workchain of the block: -1 for the masterchain, 0 for the basechain.',
  "shard" VARCHAR COMMENT 'Shard of the block as unsigned hex, e.g. 8000000000000000 (the whole workchain).',
  "seqno" INTEGER COMMENT 'Sequence number of the block in its shard.',
  "root_hash" VARCHAR COMMENT 'Root hash of the block.',
  "file_hash" VARCHAR COMMENT 'File hash of the block.',
  "block_time" TIMESTAMP(6) COMMENT 'Time the block was generated (gen_utime).',
  "block_date" DATE COMMENT 'UTC day of block_time.',
  "start_lt" BIGINT COMMENT 'Logical time the block starts at.',
  "end_lt" BIGINT COMMENT 'Logical time the block ends at.',
  "tx_count" INTEGER COMMENT 'Transactions in the block.',
  "mc_block_seqno" INTEGER COMMENT 'Masterchain block that references (commits) the block; a masterchain block names itself.',
  "key_block" BOOLEAN COMMENT 'Whether the block is a key block (it changes the configuration or the validator set).',
  "global_id" INTEGER COMMENT 'Network id: -239 mainnet, -3 testnet.',
  "version" INTEGER COMMENT 'Block format version.',
  "flags" INTEGER COMMENT 'Block flags as sent.',
  "after_merge" BOOLEAN COMMENT 'Whether the block follows a merge of two shards.',
  "before_split" BOOLEAN COMMENT 'Whether the shard splits after this block.',
  "after_split" BOOLEAN COMMENT 'Whether the block follows a split of its shard.',
  "want_merge" BOOLEAN COMMENT 'Whether the shard asks to be merged.',
  "want_split" BOOLEAN COMMENT 'Whether the shard asks to be split.',
  "vert_seqno_incr" BOOLEAN COMMENT 'Whether the vertical seqno was incremented.',
  "vert_seqno" INTEGER COMMENT 'Vertical sequence number.',
  "gen_catchain_seqno" INTEGER COMMENT 'Catchain seqno of the validator session that generated the block.',
  "min_ref_mc_seqno" INTEGER COMMENT 'Lowest masterchain block the block refers to.',
  "prev_key_block_seqno" INTEGER COMMENT 'Last key block before this block.',
  "master_ref_seqno" INTEGER COMMENT 'Masterchain block a shard block refers to (0 for masterchain blocks).',
  "validator_list_hash_short" INTEGER COMMENT 'Short hash of the validator list that generated the block.',
  "rand_seed" VARCHAR COMMENT 'Random seed of the block.',
  "created_by" VARCHAR COMMENT 'Public key of the validator that created the block.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per block of the masterchain and the shards, keyed by (workchain, shard, seqno).'
WITH (
  external_location = 's3://your-bucket/chain-etl/blocks',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'blocks', 'ADD');

CREATE TABLE hive.chain_etl."jetton_burns" (
  "tx_hash" VARCHAR COMMENT 'Transaction of the jetton wallet that processed the burn (the key).',
  "tx_lt" BIGINT COMMENT 'Logical time of that transaction.',
  "tx_time" TIMESTAMP(6) COMMENT 'Block time of that transaction.',
  "block_date" DATE COMMENT 'UTC day of tx_time.',
  "tx_aborted" BOOLEAN COMMENT 'Whether that transaction aborted: then nothing was burnt.',
  "query_id" DECIMAL(20,0) COMMENT 'Query id the owner chose (u64).',
  "jetton_master" VARCHAR COMMENT 'Jetton master (the token).',
  "owner" VARCHAR COMMENT 'Owner of the burning jetton wallet.',
  "jetton_wallet" VARCHAR COMMENT 'Jetton wallet the jettons were burnt from.',
  "amount" DECIMAL(38,0) COMMENT 'Amount burnt in raw jetton units (divide by 10^decimals of the jetton for display), exact.',
  "response_destination" VARCHAR COMMENT 'Where the excess TON goes.',
  "custom_payload" VARCHAR COMMENT 'Custom payload as a base64 BoC.',
  "trace_id" VARCHAR COMMENT 'Trace of the burn.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per jetton burn, keyed by the transaction of the burning jetton wallet, aborted burns included. Amounts are raw jetton units (not scaled by decimals).'
WITH (
  external_location = 's3://your-bucket/chain-etl/jetton_burns',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'jetton_burns', 'ADD');

CREATE TABLE hive.chain_etl."nft_transfers" (
  "tx_hash" VARCHAR COMMENT 'Transaction of the NFT item that processed the transfer (the key).',
  "tx_lt" BIGINT COMMENT 'Logical time of that transaction.',
  "tx_time" TIMESTAMP(6) COMMENT 'Block time of that transaction.',
  "block_date" DATE COMMENT 'UTC day of tx_time.',
  "tx_aborted" BOOLEAN COMMENT 'Whether that transaction aborted: then the owner did not change.',
  "query_id" DECIMAL(20,0) COMMENT 'Query id the old owner chose (u64).',
  "nft_item" VARCHAR COMMENT 'NFT item transferred.',
  "collection" VARCHAR COMMENT 'Collection of the item (null for an item outside any collection).',
  "old_owner" VARCHAR COMMENT 'Owner before the transfer (who sent it).',
  "new_owner" VARCHAR COMMENT 'Owner after the transfer.',
  "response_destination" VARCHAR COMMENT 'Where the excess TON goes.',
  "forward_amount" DECIMAL(38,0) COMMENT 'TON forwarded to the new owner with the ownership notification, nanoton.',
  "forward_payload" VARCHAR COMMENT 'Forward payload as a base64 BoC.',
  "comment" VARCHAR COMMENT 'Text comment of the forward payload (opcode 0 + text), decoded.',
  "custom_payload" VARCHAR COMMENT 'Custom payload as a base64 BoC.',
  "trace_id" VARCHAR COMMENT 'Trace of the transfer.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per NFT transfer, keyed by the transaction of the NFT item that processed it, aborted transfers included.'
WITH (
  external_location = 's3://your-bucket/chain-etl/nft_transfers',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'nft_transfers', 'ADD');

CREATE TABLE hive.chain_etl."validator_cycles" (
  "cycle_start_time" TIMESTAMP(6) COMMENT 'Time the cycle starts (utime_since of its validator set).',
  "cycle_end_time" TIMESTAMP(6) COMMENT 'Time the cycle ends (utime_until of its validator set).',
  "block_date" DATE COMMENT 'UTC day of cycle_start_time.',
  "election_id" BIGINT COMMENT 'Election that chose the set (the unix time its validation round starts).',
  "total" INTEGER COMMENT 'Validators in the set.',
  "main" INTEGER COMMENT 'Validators of the set that also validate the masterchain.',
  "total_weight" DECIMAL(20,0) COMMENT 'Sum of the validators'' weights.',
  "total_stake" DECIMAL(38,0) COMMENT 'Sum of the validators'' stakes, nanoton.',
  "min_stake" DECIMAL(38,0) COMMENT 'Smallest stake in the set, nanoton.',
  "max_stake" DECIMAL(38,0) COMMENT 'Largest stake in the set, nanoton.',
  "validators_elected_for" INTEGER COMMENT 'Seconds a set validates (config parameter 15).',
  "elections_start_before" INTEGER COMMENT 'Seconds before a cycle starts that its elections open (parameter 15).',
  "elections_end_before" INTEGER COMMENT 'Seconds before a cycle starts that its elections close (parameter 15).',
  "stake_held_for" INTEGER COMMENT 'Seconds stakes stay frozen after the cycle ends (parameter 15).',
  "max_validators" INTEGER COMMENT 'Largest set allowed (parameter 16).',
  "max_main_validators" INTEGER COMMENT 'Most masterchain validators allowed (parameter 16).',
  "min_validators" INTEGER COMMENT 'Smallest set allowed (parameter 16).',
  "min_stake_limit" DECIMAL(38,0) COMMENT 'Smallest stake allowed, nanoton (parameter 17).',
  "max_stake_limit" DECIMAL(38,0) COMMENT 'Largest stake allowed, nanoton (parameter 17).',
  "min_total_stake" DECIMAL(38,0) COMMENT 'Smallest total stake of a set, nanoton (parameter 17).',
  "max_stake_factor" INTEGER COMMENT 'Largest max_factor a validator may set, times 65536 (parameter 17).',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per validation cycle: its time span, the election that chose its set, the set totals and the elector configuration (parameters 15-17) it ran under.'
WITH (
  external_location = 's3://your-bucket/chain-etl/validator_cycles',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'validator_cycles', 'ADD');

CREATE TABLE hive.chain_etl."validator_cycle_members" (
  "cycle_start_time" TIMESTAMP(6) COMMENT 'Start of the cycle (joins validator_cycles).',
  "validator_index" INTEGER COMMENT 'Index of the validator in the set (by stake, largest first).',
  "block_date" DATE COMMENT 'UTC day of cycle_start_time.',
  "validator_pubkey" VARCHAR COMMENT 'Validator public key (hex).',
  "adnl_addr" VARCHAR COMMENT 'Validator ADNL address (hex).',
  "weight" DECIMAL(20,0) COMMENT 'Validator weight in the set (its share of total_weight).',
  "stake_holder" VARCHAR COMMENT 'Wallet or pool whose stake elected the validator.',
  "stake" DECIMAL(38,0) COMMENT 'Stake of the validator, nanoton.',
  "max_factor" INTEGER COMMENT 'Validator max_factor, times 65536.',
  "complaints" INTEGER COMMENT 'Complaints filed against the validator in the cycle.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per validator of a cycle''s set, keyed by (cycle_start_time, validator_index).'
WITH (
  external_location = 's3://your-bucket/chain-etl/validator_cycle_members',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'validator_cycle_members', 'ADD');

CREATE TABLE hive.chain_etl."validator_elections" (
  "election_id" BIGINT COMMENT 'Election id: the unix time the elected set starts validating (validator_cycles.election_id).',
  "elect_close_time" TIMESTAMP(6) COMMENT 'Time the election stopped taking stakes.',
  "block_date" DATE COMMENT 'UTC day of election_id (the day the elected set starts validating; the stream''s position).',
  "min_stake" DECIMAL(38,0) COMMENT 'Smallest stake the election accepted, nanoton.',
  "total_stake" DECIMAL(38,0) COMMENT 'Sum of the accepted stakes, nanoton.',
  "total_participants" INTEGER COMMENT 'Stakes accepted.',
  "failed" BOOLEAN COMMENT 'Whether the election failed (no set elected).',
  "finished" BOOLEAN COMMENT 'Whether the election is over (always true: the stream reads an election once it is).',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per election of the elector, keyed by election_id, read once it is finished.'
WITH (
  external_location = 's3://your-bucket/chain-etl/validator_elections',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'validator_elections', 'ADD');

CREATE TABLE hive.chain_etl."validator_election_participants" (
  "election_id" BIGINT COMMENT 'Election the stake was made in (joins validator_elections).',
  "validator_pubkey" VARCHAR COMMENT 'Validator public key (hex) the stake is for.',
  "block_date" DATE COMMENT 'UTC day of the election''s election_id.',
  "stake_holder" VARCHAR COMMENT 'Wallet or pool that staked.',
  "adnl_addr" VARCHAR COMMENT 'Validator ADNL address (hex).',
  "stake" DECIMAL(38,0) COMMENT 'Stake accepted, nanoton.',
  "max_factor" INTEGER COMMENT 'Validator max_factor, times 65536.',
  "validator_index" INTEGER COMMENT 'Index of the validator in the elected set, when the service gives it.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per stake accepted in an election, keyed by (election_id, validator_pubkey).'
WITH (
  external_location = 's3://your-bucket/chain-etl/validator_election_participants',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'validator_election_participants', 'ADD');

CREATE TABLE hive.chain_etl."traces" (
  "trace_id" VARCHAR COMMENT 'Trace id: the hash of its first transaction (the key).',
  "external_hash" VARCHAR COMMENT 'Hash of the external message that started the trace (null for a tick-tock).',
  "start_lt" BIGINT COMMENT 'Logical time of its first transaction.',
  "end_lt" BIGINT COMMENT 'Logical time of its last transaction, when the trace completed: the position the stream pages by.',
  "start_time" TIMESTAMP(6) COMMENT 'Time of its first transaction.',
  "end_time" TIMESTAMP(6) COMMENT 'Time of its last transaction.',
  "block_date" DATE COMMENT 'UTC day of end_time.',
  "mc_seqno_start" INTEGER COMMENT 'Masterchain block holding its first transaction.',
  "mc_seqno_end" INTEGER COMMENT 'Masterchain block in which it completed (joins actions.trace_mc_seqno_end).',
  "tx_count" INTEGER COMMENT 'Transactions in the trace.',
  "msg_count" INTEGER COMMENT 'Messages in the trace as the indexer counts them (the external message that started it included).',
  "trace_state" VARCHAR COMMENT 'complete (the stream stores no other state; pending and broken traces are left out).',
  "classification_state" VARCHAR COMMENT 'Whether the indexer has classified its actions: unclassified, ok, failed or broken; unknown values kept as sent. Re-read over actions_overlap.',
  "date" DATE COMMENT 'UTC day of the Hive partition folder (date=YYYY-MM-DD)'
)
COMMENT 'One row per complete trace: the tree of transactions one external message (or a tick-tock) set off, keyed by trace_id; its transactions carry the same trace_id. A trace is stored once complete and its row replaced when read again (classification comes later).'
WITH (
  external_location = 's3://your-bucket/chain-etl/traces',
  format = 'PARQUET',
  partitioned_by = ARRAY['date']
);
CALL hive.system.sync_partition_metadata('chain_etl', 'traces', 'ADD');

CREATE TABLE hive.chain_etl."jetton_masters" (
  "jetton_master" VARCHAR COMMENT 'Jetton master contract (the token; the key).',
  "symbol" VARCHAR COMMENT 'Ticker from the indexed metadata (e.g. USD₮); null when the service has none.',
  "name" VARCHAR COMMENT 'Token name from the indexed metadata.',
  "decimals" INTEGER COMMENT 'Decimals of the token: the indexed metadata''s, else the on-chain content''s; null when neither names them (TEP-64 then means 9).',
  "description" VARCHAR COMMENT 'Token description from the indexed metadata.',
  "image" VARCHAR COMMENT 'Token image URL from the indexed metadata.',
  "metadata_valid" BOOLEAN COMMENT 'Whether the service found the token metadata valid; null when it sent none.',
  "is_scam" BOOLEAN COMMENT 'Whether the service marks the token as a scam; null when it says nothing.',
  "total_supply" DECIMAL(38,0) COMMENT 'Total supply in raw jetton units, exact.',
  "mintable" BOOLEAN COMMENT 'Whether the admin can still mint.',
  "admin" VARCHAR COMMENT 'Admin address; null when the token has none.',
  "jetton_wallet_code_hash" VARCHAR COMMENT 'Code hash of the token''s jetton wallets.',
  "code_hash" VARCHAR COMMENT 'Code hash of the master contract.',
  "data_hash" VARCHAR COMMENT 'Data hash of the master contract at its last transaction.',
  "last_tx_lt" BIGINT COMMENT 'Logical time of the master''s last transaction the service had indexed.',
  "snapshot_time" TIMESTAMP(6) COMMENT 'When the snapshot holding this row was taken.'
)
COMMENT 'One row per jetton master (a token) as of its snapshot, with the token metadata the service indexed; upserted by address, and deleted once the service no longer lists it.'
WITH (
  external_location = 's3://your-bucket/chain-etl/jetton_masters',
  format = 'PARQUET'
);

CREATE TABLE hive.chain_etl."jetton_wallets" (
  "jetton_wallet" VARCHAR COMMENT 'Jetton wallet contract (the key).',
  "owner" VARCHAR COMMENT 'Owner of the wallet.',
  "jetton_master" VARCHAR COMMENT 'Jetton master (the token).',
  "balance" DECIMAL(38,0) COMMENT 'Balance in raw jetton units (divide by 10^decimals of the jetton, see jetton_masters), exact.',
  "last_tx_lt" BIGINT COMMENT 'Logical time of the wallet''s last transaction the service had indexed.',
  "code_hash" VARCHAR COMMENT 'Code hash of the wallet contract.',
  "data_hash" VARCHAR COMMENT 'Data hash of the wallet contract at its last transaction.',
  "snapshot_time" TIMESTAMP(6) COMMENT 'When the snapshot holding this row was taken.'
)
COMMENT 'One row per jetton wallet as of its snapshot: the current balance of one owner in one jetton; upserted by wallet address, and deleted once the service no longer lists it.'
WITH (
  external_location = 's3://your-bucket/chain-etl/jetton_wallets',
  format = 'PARQUET'
);

CREATE TABLE hive.chain_etl."nft_items" (
  "nft_item" VARCHAR COMMENT 'NFT item contract (the key).',
  "collection" VARCHAR COMMENT 'Collection of the item; null for an item outside any collection.',
  "nft_index" VARCHAR COMMENT 'Index of the item in its collection, as a decimal string (indexes reach 2^256: Telegram usernames'' are hashes).',
  "owner" VARCHAR COMMENT 'Owner of the item (the sale contract while it is on sale; see real_owner).',
  "real_owner" VARCHAR COMMENT 'Owner behind the sale contract while the item is on sale; null otherwise or when the service does not say.',
  "on_sale" BOOLEAN COMMENT 'Whether the item is on sale.',
  "sale_contract" VARCHAR COMMENT 'Sale contract holding the item while it is on sale.',
  "init" BOOLEAN COMMENT 'Whether the item is initialised.',
  "content" VARCHAR COMMENT 'Item content as the service sent it (e.g. {"uri": …}).',
  "last_tx_lt" BIGINT COMMENT 'Logical time of the item''s last transaction the service had indexed.',
  "code_hash" VARCHAR COMMENT 'Code hash of the item contract.',
  "data_hash" VARCHAR COMMENT 'Data hash of the item contract at its last transaction.',
  "snapshot_time" TIMESTAMP(6) COMMENT 'When the snapshot holding this row was taken.'
)
COMMENT 'One row per NFT item as of its snapshot: its collection, index, owner and content; upserted by item address, and deleted once the service no longer lists it in the scope.'
WITH (
  external_location = 's3://your-bucket/chain-etl/nft_items',
  format = 'PARQUET'
);

CREATE TABLE hive.chain_etl."nft_collections" (
  "collection" VARCHAR COMMENT 'NFT collection contract (the key; `collection` in nft_items and nft_transfers).',
  "owner" VARCHAR COMMENT 'Owner of the collection; null when it has none.',
  "next_item_index" DECIMAL(38,0) COMMENT 'Index the collection gives its next item (the count of items minted in order); -1 for a collection whose items are not numbered in order (TON DNS, Telegram usernames).',
  "content" VARCHAR COMMENT 'Collection content as the service sent it (e.g. {"uri": …}).',
  "last_tx_lt" BIGINT COMMENT 'Logical time of the collection''s last transaction the service had indexed.',
  "code_hash" VARCHAR COMMENT 'Code hash of the collection contract.',
  "data_hash" VARCHAR COMMENT 'Data hash of the collection contract at its last transaction.',
  "snapshot_time" TIMESTAMP(6) COMMENT 'When the snapshot holding this row was taken.'
)
COMMENT 'One row per NFT collection as of its snapshot: its owner, next item index and content; upserted by collection address, and deleted once the service no longer lists it in the scope.'
WITH (
  external_location = 's3://your-bucket/chain-etl/nft_collections',
  format = 'PARQUET'
);

CREATE TABLE hive.chain_etl."addresses" (
  "address" VARCHAR COMMENT 'Raw form wc:HEX, upper case: the join key of every address column.',
  "user_friendly" VARCHAR COMMENT 'User-friendly form as the API prints it (bounceable or not per contract type).',
  "domain" VARCHAR COMMENT 'DNS name pointing at the address, if any.',
  "interfaces" ARRAY(VARCHAR) COMMENT 'Contract interfaces the indexer recognised, e.g. wallet_v4r2, jetton_wallet.'
)
COMMENT 'One row per address seen in an address book of any response.'
WITH (
  external_location = 's3://your-bucket/chain-etl/addresses',
  format = 'PARQUET'
);
