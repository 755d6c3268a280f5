-- chain-etl warehouse (DuckDB): tables, documentation and views.
-- Generated from the table definitions in src/ by renderSchemaFiles() (src/streams/schema-files.ts); do not edit. Regenerate with `npm run generate`.

-- Key ("tx_hash"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "transactions" (
  "tx_hash" VARCHAR NOT NULL,
  "tx_hash_hex" VARCHAR NOT NULL,
  "account" VARCHAR NOT NULL,
  "tx_lt" UBIGINT NOT NULL,
  "tx_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "mc_block_seqno" INTEGER,
  "block_workchain" INTEGER,
  "block_shard" VARCHAR,
  "block_seqno" INTEGER,
  "trace_id" VARCHAR,
  "trace_external_hash" VARCHAR,
  "prev_tx_hash" VARCHAR NOT NULL,
  "prev_tx_lt" UBIGINT NOT NULL,
  "orig_status" VARCHAR NOT NULL,
  "end_status" VARCHAR NOT NULL,
  "total_fees" DECIMAL(38,0) NOT NULL,
  "descr_type" VARCHAR NOT NULL,
  "aborted" BOOLEAN,
  "destroyed" BOOLEAN,
  "credit_first" BOOLEAN,
  "is_tock" BOOLEAN,
  "installed" BOOLEAN,
  "storage_fees_collected" DECIMAL(38,0),
  "storage_fees_due" DECIMAL(38,0),
  "storage_status_change" VARCHAR,
  "due_fees_collected" DECIMAL(38,0),
  "credit" DECIMAL(38,0),
  "compute_skipped" BOOLEAN,
  "compute_skip_reason" VARCHAR,
  "compute_success" BOOLEAN,
  "compute_account_activated" BOOLEAN,
  "compute_exit_code" INTEGER,
  "compute_exit_arg" INTEGER,
  "compute_gas_used" BIGINT,
  "compute_gas_limit" BIGINT,
  "compute_gas_credit" BIGINT,
  "compute_gas_fees" DECIMAL(38,0),
  "compute_vm_steps" BIGINT,
  "compute_mode" INTEGER,
  "action_success" BOOLEAN,
  "action_valid" BOOLEAN,
  "action_no_funds" BOOLEAN,
  "action_result_code" INTEGER,
  "action_result_arg" INTEGER,
  "action_tot_actions" INTEGER,
  "action_skipped_actions" INTEGER,
  "action_msgs_created" INTEGER,
  "action_total_fwd_fees" DECIMAL(38,0),
  "action_total_action_fees" DECIMAL(38,0),
  "action_status_change" VARCHAR,
  "bounce_type" VARCHAR,
  "bounce_req_fwd_fees" DECIMAL(38,0),
  "bounce_msg_fees" DECIMAL(38,0),
  "bounce_fwd_fees" DECIMAL(38,0),
  "balance_before" DECIMAL(38,0),
  "balance_after" DECIMAL(38,0),
  "status_before" VARCHAR,
  "status_after" VARCHAR,
  "state_hash_before" VARCHAR,
  "state_hash_after" VARCHAR,
  "code_hash_after" VARCHAR,
  "data_hash_after" VARCHAR,
  "in_msg_hash" VARCHAR,
  "out_msg_count" INTEGER NOT NULL,
  "finality" VARCHAR,
  "emulated" BOOLEAN
);
COMMENT ON TABLE "transactions" IS 'One row per transaction, with its description phases and the account state before and after it.';
COMMENT ON COLUMN "transactions"."tx_hash" IS 'Transaction hash (base64), the API form and the key.';
COMMENT ON COLUMN "transactions"."tx_hash_hex" IS 'The same hash in lower-case hex, as explorers print it.';
COMMENT ON COLUMN "transactions"."account" IS 'Account the transaction ran on.';
COMMENT ON COLUMN "transactions"."tx_lt" IS 'Logical time of the transaction; unique per account, not across accounts.';
COMMENT ON COLUMN "transactions"."tx_time" IS 'Block time of the transaction (epoch(tx_time) gives the unix seconds of the API utime filters).';
COMMENT ON COLUMN "transactions"."block_date" IS 'UTC day of tx_time.';
COMMENT ON COLUMN "transactions"."mc_block_seqno" IS 'Masterchain block that committed the transaction (null while not committed).';
COMMENT ON COLUMN "transactions"."block_workchain" IS 'Workchain of the block holding the transaction.';
COMMENT ON COLUMN "transactions"."block_shard" IS 'Shard of that block as unsigned hex, e.g. 8000000000000000.';
COMMENT ON COLUMN "transactions"."block_seqno" IS 'Seqno of that block in its shard.';
COMMENT ON COLUMN "transactions"."trace_id" IS 'Trace (tree of transactions caused by one external message) it belongs to.';
COMMENT ON COLUMN "transactions"."trace_external_hash" IS 'Hash of the external message that started the trace, when there is one.';
COMMENT ON COLUMN "transactions"."prev_tx_hash" IS 'Hash of the account''s previous transaction (all zero bytes for the first).';
COMMENT ON COLUMN "transactions"."prev_tx_lt" IS 'Logical time of the account''s previous transaction (0 for the first).';
COMMENT ON COLUMN "transactions"."orig_status" IS 'Account status before: uninit, frozen, active or nonexist.';
COMMENT ON COLUMN "transactions"."end_status" IS 'Account status after: uninit, frozen, active or nonexist.';
COMMENT ON COLUMN "transactions"."total_fees" IS 'Total fees paid, nanoton.';
COMMENT ON COLUMN "transactions"."descr_type" IS 'Transaction kind: ord, storage, tick_tock, split_prepare, split_install, merge_prepare, merge_install.';
COMMENT ON COLUMN "transactions"."aborted" IS 'The transaction was aborted (its state changes were rolled back).';
COMMENT ON COLUMN "transactions"."destroyed" IS 'The account was destroyed by the transaction.';
COMMENT ON COLUMN "transactions"."credit_first" IS 'Credit phase ran before the storage phase (non-bounceable inbound message).';
COMMENT ON COLUMN "transactions"."is_tock" IS 'Tick-tock transactions: true for tock, false for tick.';
COMMENT ON COLUMN "transactions"."installed" IS 'Split/merge install transactions: whether it was installed.';
COMMENT ON COLUMN "transactions"."storage_fees_collected" IS 'Storage phase: fees collected, nanoton.';
COMMENT ON COLUMN "transactions"."storage_fees_due" IS 'Storage phase: fees left due, nanoton.';
COMMENT ON COLUMN "transactions"."storage_status_change" IS 'Storage phase: unchanged, frozen or deleted.';
COMMENT ON COLUMN "transactions"."due_fees_collected" IS 'Credit phase: due fees collected, nanoton.';
COMMENT ON COLUMN "transactions"."credit" IS 'Credit phase: value credited to the account, nanoton.';
COMMENT ON COLUMN "transactions"."compute_skipped" IS 'Compute phase was skipped.';
COMMENT ON COLUMN "transactions"."compute_skip_reason" IS 'Why it was skipped: no_state, bad_state, no_gas, suspended.';
COMMENT ON COLUMN "transactions"."compute_success" IS 'Compute phase succeeded.';
COMMENT ON COLUMN "transactions"."compute_account_activated" IS 'Compute phase activated the account (deployed its code).';
COMMENT ON COLUMN "transactions"."compute_exit_code" IS 'TVM exit code (0 and 1 mean success).';
COMMENT ON COLUMN "transactions"."compute_exit_arg" IS 'TVM exit argument, when the contract threw one.';
COMMENT ON COLUMN "transactions"."compute_gas_used" IS 'Gas used.';
COMMENT ON COLUMN "transactions"."compute_gas_limit" IS 'Gas limit.';
COMMENT ON COLUMN "transactions"."compute_gas_credit" IS 'Gas credit (external messages).';
COMMENT ON COLUMN "transactions"."compute_gas_fees" IS 'Gas fees, nanoton.';
COMMENT ON COLUMN "transactions"."compute_vm_steps" IS 'TVM steps executed.';
COMMENT ON COLUMN "transactions"."compute_mode" IS 'TVM mode.';
COMMENT ON COLUMN "transactions"."action_success" IS 'Action phase succeeded.';
COMMENT ON COLUMN "transactions"."action_valid" IS 'Action list was valid.';
COMMENT ON COLUMN "transactions"."action_no_funds" IS 'Action phase ran out of funds.';
COMMENT ON COLUMN "transactions"."action_result_code" IS 'Action phase result code (0 = ok).';
COMMENT ON COLUMN "transactions"."action_result_arg" IS 'Action phase result argument.';
COMMENT ON COLUMN "transactions"."action_tot_actions" IS 'Actions in the action list.';
COMMENT ON COLUMN "transactions"."action_skipped_actions" IS 'Actions skipped.';
COMMENT ON COLUMN "transactions"."action_msgs_created" IS 'Outbound messages created.';
COMMENT ON COLUMN "transactions"."action_total_fwd_fees" IS 'Forwarding fees of the outbound messages, nanoton.';
COMMENT ON COLUMN "transactions"."action_total_action_fees" IS 'Action fees, nanoton.';
COMMENT ON COLUMN "transactions"."action_status_change" IS 'Action phase status change: unchanged, frozen or deleted.';
COMMENT ON COLUMN "transactions"."bounce_type" IS 'Bounce phase: negfunds, nofunds or ok.';
COMMENT ON COLUMN "transactions"."bounce_req_fwd_fees" IS 'Bounce phase: forwarding fees required, nanoton.';
COMMENT ON COLUMN "transactions"."bounce_msg_fees" IS 'Bounce phase: message fees, nanoton.';
COMMENT ON COLUMN "transactions"."bounce_fwd_fees" IS 'Bounce phase: forwarding fees, nanoton.';
COMMENT ON COLUMN "transactions"."balance_before" IS 'Account balance before, nanoton (null when the account did not exist).';
COMMENT ON COLUMN "transactions"."balance_after" IS 'Account balance after, nanoton.';
COMMENT ON COLUMN "transactions"."status_before" IS 'Account status in the state before (null when the account did not exist).';
COMMENT ON COLUMN "transactions"."status_after" IS 'Account status in the state after.';
COMMENT ON COLUMN "transactions"."state_hash_before" IS 'Hash of the account state before.';
COMMENT ON COLUMN "transactions"."state_hash_after" IS 'Hash of the account state after.';
COMMENT ON COLUMN "transactions"."code_hash_after" IS 'Hash of the account code after (active accounts).';
COMMENT ON COLUMN "transactions"."data_hash_after" IS 'Hash of the account data after (active accounts).';
COMMENT ON COLUMN "transactions"."in_msg_hash" IS 'Hash of the inbound message (null for tick-tock and other transactions without one).';
COMMENT ON COLUMN "transactions"."out_msg_count" IS 'Outbound messages the transaction sent.';
COMMENT ON COLUMN "transactions"."finality" IS 'pending, confirmed or finalized; unknown values kept as sent (e.g. unknown_3); null when the API sent none.';
COMMENT ON COLUMN "transactions"."emulated" IS 'The API served an emulated (not yet committed) transaction.';

-- Key ("tx_hash", "direction", "msg_hash"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "messages" (
  "tx_hash" VARCHAR NOT NULL,
  "direction" VARCHAR NOT NULL,
  "msg_hash" VARCHAR NOT NULL,
  "tx_lt" UBIGINT NOT NULL,
  "tx_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "trace_id" VARCHAR,
  "source" VARCHAR,
  "destination" VARCHAR,
  "value" DECIMAL(38,0),
  "fwd_fee" DECIMAL(38,0),
  "ihr_fee" DECIMAL(38,0),
  "import_fee" DECIMAL(38,0),
  "created_lt" UBIGINT,
  "created_time" TIMESTAMPTZ,
  "opcode" BIGINT,
  "decoded_opcode" VARCHAR,
  "bounce" BOOLEAN,
  "bounced" BOOLEAN,
  "ihr_disabled" BOOLEAN,
  "body_hash" VARCHAR,
  "body" VARCHAR,
  "comment" VARCHAR,
  "init_state_hash" VARCHAR,
  "msg_hash_norm" VARCHAR
);
COMMENT ON TABLE "messages" IS 'One row per message of a transaction: its inbound message (direction in) and each outbound one (direction out). An internal message appears twice, as out of the sending transaction and as in of the receiving one.';
COMMENT ON COLUMN "messages"."tx_hash" IS 'Transaction the message belongs to (joins transactions.tx_hash).';
COMMENT ON COLUMN "messages"."direction" IS 'in (the message the transaction received) or out (a message it sent).';
COMMENT ON COLUMN "messages"."msg_hash" IS 'Message hash (base64).';
COMMENT ON COLUMN "messages"."tx_lt" IS 'Logical time of the transaction.';
COMMENT ON COLUMN "messages"."tx_time" IS 'Block time of the transaction.';
COMMENT ON COLUMN "messages"."block_date" IS 'UTC day of tx_time.';
COMMENT ON COLUMN "messages"."trace_id" IS 'Trace of the transaction.';
COMMENT ON COLUMN "messages"."source" IS 'Sender; null for an external inbound message.';
COMMENT ON COLUMN "messages"."destination" IS 'Receiver; null for an external outbound message (log).';
COMMENT ON COLUMN "messages"."value" IS 'Value carried, nanoton; null for external messages.';
COMMENT ON COLUMN "messages"."fwd_fee" IS 'Forwarding fee, nanoton.';
COMMENT ON COLUMN "messages"."ihr_fee" IS 'Instant hypercube routing fee, nanoton.';
COMMENT ON COLUMN "messages"."import_fee" IS 'Import fee of an external inbound message, nanoton.';
COMMENT ON COLUMN "messages"."created_lt" IS 'Logical time the message was created at; null for external inbound messages.';
COMMENT ON COLUMN "messages"."created_time" IS 'Time the message was created at; null for external inbound messages.';
COMMENT ON COLUMN "messages"."opcode" IS 'First 32 bits of the body as an unsigned integer (0 … 4294967295), e.g. 260734629 for 0x0f8a7ea5 (printf(''0x%08x'', opcode) prints the hex form); null when the body is shorter.';
COMMENT ON COLUMN "messages"."decoded_opcode" IS 'Name the indexer gives the opcode, e.g. jetton_transfer, text_comment.';
COMMENT ON COLUMN "messages"."bounce" IS 'Bounceable message.';
COMMENT ON COLUMN "messages"."bounced" IS 'The message is a bounce of an earlier one.';
COMMENT ON COLUMN "messages"."ihr_disabled" IS 'Instant hypercube routing disabled.';
COMMENT ON COLUMN "messages"."body_hash" IS 'Hash of the body cell.';
COMMENT ON COLUMN "messages"."body" IS 'Body as a base64 BoC, as the API sends it: decode any opcode later without refetching.';
COMMENT ON COLUMN "messages"."comment" IS 'Text comment: the body decoded when it is opcode 0 followed by text; null otherwise (also for encrypted comments).';
COMMENT ON COLUMN "messages"."init_state_hash" IS 'Hash of the StateInit the message carries (deploys); its BoC is not stored.';
COMMENT ON COLUMN "messages"."msg_hash_norm" IS 'Normalised hash of an external inbound message (stable across re-signing wallets).';

-- Key ("action_id"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "actions" (
  "action_id" VARCHAR NOT NULL,
  "trace_id" VARCHAR NOT NULL,
  "type" VARCHAR NOT NULL,
  "success" BOOLEAN,
  "start_lt" UBIGINT NOT NULL,
  "end_lt" UBIGINT NOT NULL,
  "start_time" TIMESTAMPTZ NOT NULL,
  "end_time" TIMESTAMPTZ NOT NULL,
  "trace_end_lt" UBIGINT NOT NULL,
  "trace_end_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "trace_mc_seqno_end" INTEGER NOT NULL,
  "trace_external_hash" VARCHAR,
  "trace_external_hash_norm" VARCHAR,
  "tx_hashes" VARCHAR[] NOT NULL,
  "source" VARCHAR,
  "destination" VARCHAR,
  "asset" VARCHAR,
  "amount" DECIMAL(38,0),
  "comment" VARCHAR,
  "details" JSON,
  "finality" VARCHAR
);
COMMENT ON TABLE "actions" IS 'One row per action the indexer classified in a completed trace (a transfer, a swap, a deposit…). A trace is replaced as a whole whenever it is read again, so re-classified traces leave no stale actions.';
COMMENT ON COLUMN "actions"."action_id" IS 'Action id: sha256 of the root message hash and the type (changes when the type does).';
COMMENT ON COLUMN "actions"."trace_id" IS 'Trace the action was found in; the unit of replacement.';
COMMENT ON COLUMN "actions"."type" IS 'Action type, e.g. ton_transfer, jetton_transfer, jetton_swap; new types load as they come.';
COMMENT ON COLUMN "actions"."success" IS 'Whether the action succeeded.';
COMMENT ON COLUMN "actions"."start_lt" IS 'Logical time of its first transaction.';
COMMENT ON COLUMN "actions"."end_lt" IS 'Logical time of its last transaction.';
COMMENT ON COLUMN "actions"."start_time" IS 'Time of its first transaction.';
COMMENT ON COLUMN "actions"."end_time" IS 'Time of its last transaction.';
COMMENT ON COLUMN "actions"."trace_end_lt" IS 'Logical time at which the whole trace completed: the position the stream pages by.';
COMMENT ON COLUMN "actions"."trace_end_time" IS 'Time at which the whole trace completed.';
COMMENT ON COLUMN "actions"."block_date" IS 'UTC day of trace_end_time.';
COMMENT ON COLUMN "actions"."trace_mc_seqno_end" IS 'Masterchain block in which the trace completed.';
COMMENT ON COLUMN "actions"."trace_external_hash" IS 'Hash of the external message that started the trace.';
COMMENT ON COLUMN "actions"."trace_external_hash_norm" IS 'Normalised hash of that external message.';
COMMENT ON COLUMN "actions"."tx_hashes" IS 'Hashes (base64) of the transactions making up the action.';
COMMENT ON COLUMN "actions"."source" IS 'Initiating side, lifted from details: sender, owner, old owner or stake holder; null when the type has none.';
COMMENT ON COLUMN "actions"."destination" IS 'Receiving side, lifted from details: destination, receiver, new owner, pool or the ticked account.';
COMMENT ON COLUMN "actions"."asset" IS 'What moved: the jetton master of jetton actions, the NFT item of NFT actions; null for TON.';
COMMENT ON COLUMN "actions"."amount" IS 'How much moved in base units (nanoton when asset is null, jetton units for a jetton); null for NFTs and other types.';
COMMENT ON COLUMN "actions"."comment" IS 'Text comment of a transfer (null when encrypted or absent).';
COMMENT ON COLUMN "actions"."details" IS 'The full type-specific details object as the API sent it.';
COMMENT ON COLUMN "actions"."finality" IS 'pending, confirmed or finalized; unknown values kept as sent.';

-- Key ("action_id", "account"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "action_accounts" (
  "action_id" VARCHAR NOT NULL,
  "account" VARCHAR NOT NULL,
  "trace_id" VARCHAR NOT NULL,
  "trace_end_lt" UBIGINT NOT NULL,
  "trace_end_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL
);
COMMENT ON TABLE "action_accounts" IS 'One row per account an action involves (wallets, jetton wallets, masters, pools…): the way to find the actions of an account.';
COMMENT ON COLUMN "action_accounts"."action_id" IS 'The action (joins actions.action_id).';
COMMENT ON COLUMN "action_accounts"."account" IS 'An account the action involves.';
COMMENT ON COLUMN "action_accounts"."trace_id" IS 'Trace of the action; rows are replaced per trace like actions.';
COMMENT ON COLUMN "action_accounts"."trace_end_lt" IS 'Logical time at which the trace completed.';
COMMENT ON COLUMN "action_accounts"."trace_end_time" IS 'Time at which the trace completed.';
COMMENT ON COLUMN "action_accounts"."block_date" IS 'UTC day of trace_end_time.';

-- Key ("tx_hash"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "jetton_transfers" (
  "tx_hash" VARCHAR NOT NULL,
  "tx_lt" UBIGINT NOT NULL,
  "tx_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "tx_aborted" BOOLEAN,
  "query_id" UBIGINT NOT NULL,
  "jetton_master" VARCHAR,
  "source" VARCHAR,
  "destination" VARCHAR,
  "source_wallet" VARCHAR,
  "amount" DECIMAL(38,0) NOT NULL,
  "response_destination" VARCHAR,
  "forward_ton_amount" DECIMAL(38,0),
  "forward_payload" VARCHAR,
  "comment" VARCHAR,
  "custom_payload" VARCHAR,
  "trace_id" VARCHAR
);
COMMENT ON TABLE "jetton_transfers" IS 'One row per jetton transfer, keyed by the transaction of the sending jetton wallet. Amounts are raw jetton units (not scaled by decimals).';
COMMENT ON COLUMN "jetton_transfers"."tx_hash" IS 'Transaction of the sending jetton wallet that processed the transfer (the key).';
COMMENT ON COLUMN "jetton_transfers"."tx_lt" IS 'Logical time of that transaction.';
COMMENT ON COLUMN "jetton_transfers"."tx_time" IS 'Block time of that transaction.';
COMMENT ON COLUMN "jetton_transfers"."block_date" IS 'UTC day of tx_time.';
COMMENT ON COLUMN "jetton_transfers"."tx_aborted" IS 'Whether it was aborted (always false: the endpoint skips aborted ones; null in 2024-format responses).';
COMMENT ON COLUMN "jetton_transfers"."query_id" IS 'Query id the sender chose (u64).';
COMMENT ON COLUMN "jetton_transfers"."jetton_master" IS 'Jetton master (the token).';
COMMENT ON COLUMN "jetton_transfers"."source" IS 'Owner of the sending jetton wallet.';
COMMENT ON COLUMN "jetton_transfers"."destination" IS 'Owner the jettons were sent to.';
COMMENT ON COLUMN "jetton_transfers"."source_wallet" IS 'Sending jetton wallet.';
COMMENT ON COLUMN "jetton_transfers"."amount" IS 'Amount in raw jetton units (divide by 10^decimals of the jetton for display), exact.';
COMMENT ON COLUMN "jetton_transfers"."response_destination" IS 'Where the excess TON goes.';
COMMENT ON COLUMN "jetton_transfers"."forward_ton_amount" IS 'TON forwarded to the destination owner with the notification, nanoton.';
COMMENT ON COLUMN "jetton_transfers"."forward_payload" IS 'Forward payload as a base64 BoC.';
COMMENT ON COLUMN "jetton_transfers"."comment" IS 'Text comment of the forward payload (opcode 0 + text), decoded.';
COMMENT ON COLUMN "jetton_transfers"."custom_payload" IS 'Custom payload as a base64 BoC.';
COMMENT ON COLUMN "jetton_transfers"."trace_id" IS 'Trace of the transfer.';

-- Key ("tx_hash", "type", "stake_holder"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "validator_events" (
  "tx_hash" VARCHAR NOT NULL,
  "type" VARCHAR NOT NULL,
  "stake_holder" VARCHAR NOT NULL,
  "tx_lt" UBIGINT NOT NULL,
  "tx_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "validator_pubkey" VARCHAR,
  "adnl_addr" VARCHAR,
  "election_id" BIGINT,
  "query_id" UBIGINT,
  "amount" DECIMAL(38,0) NOT NULL,
  "reason" INTEGER
);
COMMENT ON TABLE "validator_events" IS 'One row per stake event of the elector: a stake accepted or rejected, or a stake recovered.';
COMMENT ON COLUMN "validator_events"."tx_hash" IS 'Elector transaction that produced the event.';
COMMENT ON COLUMN "validator_events"."type" IS 'stake_accepted, stake_rejected or stake_recovered (other values kept as sent).';
COMMENT ON COLUMN "validator_events"."stake_holder" IS 'Wallet or pool that staked or recovered.';
COMMENT ON COLUMN "validator_events"."tx_lt" IS 'Logical time of the elector transaction.';
COMMENT ON COLUMN "validator_events"."tx_time" IS 'Time of the elector transaction.';
COMMENT ON COLUMN "validator_events"."block_date" IS 'UTC day of tx_time.';
COMMENT ON COLUMN "validator_events"."validator_pubkey" IS 'Validator public key (hex), for stake events.';
COMMENT ON COLUMN "validator_events"."adnl_addr" IS 'Validator ADNL address (hex), for stake events.';
COMMENT ON COLUMN "validator_events"."election_id" IS 'Election id (the unix time the validation round starts).';
COMMENT ON COLUMN "validator_events"."query_id" IS 'Query id of the elector message (u64).';
COMMENT ON COLUMN "validator_events"."amount" IS 'Stake amount, nanoton.';
COMMENT ON COLUMN "validator_events"."reason" IS 'Elector reason code of a rejected stake.';

-- Key ("workchain", "shard", "seqno"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "blocks" (
  "workchain" INTEGER NOT NULL,
  "shard" VARCHAR NOT NULL,
  "seqno" INTEGER NOT NULL,
  "root_hash" VARCHAR NOT NULL,
  "file_hash" VARCHAR NOT NULL,
  "block_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "start_lt" UBIGINT NOT NULL,
  "end_lt" UBIGINT NOT NULL,
  "tx_count" INTEGER,
  "mc_block_seqno" INTEGER,
  "key_block" BOOLEAN,
  "global_id" INTEGER,
  "version" INTEGER,
  "flags" INTEGER,
  "after_merge" BOOLEAN,
  "before_split" BOOLEAN,
  "after_split" BOOLEAN,
  "want_merge" BOOLEAN,
  "want_split" BOOLEAN,
  "vert_seqno_incr" BOOLEAN,
  "vert_seqno" INTEGER,
  "gen_catchain_seqno" INTEGER,
  "min_ref_mc_seqno" INTEGER,
  "prev_key_block_seqno" INTEGER,
  "master_ref_seqno" INTEGER,
  "validator_list_hash_short" INTEGER,
  "rand_seed" VARCHAR,
  "created_by" VARCHAR
);
COMMENT ON TABLE "blocks" IS 'One row per block of the masterchain and the shards, keyed by (workchain, shard, seqno).';
COMMENT ON COLUMN "blocks"."workchain" IS 'Workchain of the block: -1 for the masterchain, 0 for the basechain.';
COMMENT ON COLUMN "blocks"."shard" IS 'Shard of the block as unsigned hex, e.g. 8000000000000000 (the whole workchain).';
COMMENT ON COLUMN "blocks"."seqno" IS 'Sequence number of the block in its shard.';
COMMENT ON COLUMN "blocks"."root_hash" IS 'Root hash of the block.';
COMMENT ON COLUMN "blocks"."file_hash" IS 'File hash of the block.';
COMMENT ON COLUMN "blocks"."block_time" IS 'Time the block was generated (gen_utime).';
COMMENT ON COLUMN "blocks"."block_date" IS 'UTC day of block_time.';
COMMENT ON COLUMN "blocks"."start_lt" IS 'Logical time the block starts at.';
COMMENT ON COLUMN "blocks"."end_lt" IS 'Logical time the block ends at.';
COMMENT ON COLUMN "blocks"."tx_count" IS 'Transactions in the block.';
COMMENT ON COLUMN "blocks"."mc_block_seqno" IS 'Masterchain block that references (commits) the block; a masterchain block names itself.';
COMMENT ON COLUMN "blocks"."key_block" IS 'Whether the block is a key block (it changes the configuration or the validator set).';
COMMENT ON COLUMN "blocks"."global_id" IS 'Network id: -239 mainnet, -3 testnet.';
COMMENT ON COLUMN "blocks"."version" IS 'Block format version.';
COMMENT ON COLUMN "blocks"."flags" IS 'Block flags as sent.';
COMMENT ON COLUMN "blocks"."after_merge" IS 'Whether the block follows a merge of two shards.';
COMMENT ON COLUMN "blocks"."before_split" IS 'Whether the shard splits after this block.';
COMMENT ON COLUMN "blocks"."after_split" IS 'Whether the block follows a split of its shard.';
COMMENT ON COLUMN "blocks"."want_merge" IS 'Whether the shard asks to be merged.';
COMMENT ON COLUMN "blocks"."want_split" IS 'Whether the shard asks to be split.';
COMMENT ON COLUMN "blocks"."vert_seqno_incr" IS 'Whether the vertical seqno was incremented.';
COMMENT ON COLUMN "blocks"."vert_seqno" IS 'Vertical sequence number.';
COMMENT ON COLUMN "blocks"."gen_catchain_seqno" IS 'Catchain seqno of the validator session that generated the block.';
COMMENT ON COLUMN "blocks"."min_ref_mc_seqno" IS 'Lowest masterchain block the block refers to.';
COMMENT ON COLUMN "blocks"."prev_key_block_seqno" IS 'Last key block before this block.';
COMMENT ON COLUMN "blocks"."master_ref_seqno" IS 'Masterchain block a shard block refers to (0 for masterchain blocks).';
COMMENT ON COLUMN "blocks"."validator_list_hash_short" IS 'Short hash of the validator list that generated the block.';
COMMENT ON COLUMN "blocks"."rand_seed" IS 'Random seed of the block.';
COMMENT ON COLUMN "blocks"."created_by" IS 'Public key of the validator that created the block.';

-- Key ("tx_hash"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "jetton_burns" (
  "tx_hash" VARCHAR NOT NULL,
  "tx_lt" UBIGINT NOT NULL,
  "tx_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "tx_aborted" BOOLEAN,
  "query_id" UBIGINT NOT NULL,
  "jetton_master" VARCHAR,
  "owner" VARCHAR,
  "jetton_wallet" VARCHAR,
  "amount" DECIMAL(38,0) NOT NULL,
  "response_destination" VARCHAR,
  "custom_payload" VARCHAR,
  "trace_id" VARCHAR
);
COMMENT ON TABLE "jetton_burns" IS 'One row per jetton burn, keyed by the transaction of the burning jetton wallet, aborted burns included. Amounts are raw jetton units (not scaled by decimals).';
COMMENT ON COLUMN "jetton_burns"."tx_hash" IS 'Transaction of the jetton wallet that processed the burn (the key).';
COMMENT ON COLUMN "jetton_burns"."tx_lt" IS 'Logical time of that transaction.';
COMMENT ON COLUMN "jetton_burns"."tx_time" IS 'Block time of that transaction.';
COMMENT ON COLUMN "jetton_burns"."block_date" IS 'UTC day of tx_time.';
COMMENT ON COLUMN "jetton_burns"."tx_aborted" IS 'Whether that transaction aborted: then nothing was burnt.';
COMMENT ON COLUMN "jetton_burns"."query_id" IS 'Query id the owner chose (u64).';
COMMENT ON COLUMN "jetton_burns"."jetton_master" IS 'Jetton master (the token).';
COMMENT ON COLUMN "jetton_burns"."owner" IS 'Owner of the burning jetton wallet.';
COMMENT ON COLUMN "jetton_burns"."jetton_wallet" IS 'Jetton wallet the jettons were burnt from.';
COMMENT ON COLUMN "jetton_burns"."amount" IS 'Amount burnt in raw jetton units (divide by 10^decimals of the jetton for display), exact.';
COMMENT ON COLUMN "jetton_burns"."response_destination" IS 'Where the excess TON goes.';
COMMENT ON COLUMN "jetton_burns"."custom_payload" IS 'Custom payload as a base64 BoC.';
COMMENT ON COLUMN "jetton_burns"."trace_id" IS 'Trace of the burn.';

-- Key ("tx_hash"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "nft_transfers" (
  "tx_hash" VARCHAR NOT NULL,
  "tx_lt" UBIGINT NOT NULL,
  "tx_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "tx_aborted" BOOLEAN,
  "query_id" UBIGINT NOT NULL,
  "nft_item" VARCHAR NOT NULL,
  "collection" VARCHAR,
  "old_owner" VARCHAR,
  "new_owner" VARCHAR,
  "response_destination" VARCHAR,
  "forward_amount" DECIMAL(38,0),
  "forward_payload" VARCHAR,
  "comment" VARCHAR,
  "custom_payload" VARCHAR,
  "trace_id" VARCHAR
);
COMMENT ON TABLE "nft_transfers" IS 'One row per NFT transfer, keyed by the transaction of the NFT item that processed it, aborted transfers included.';
COMMENT ON COLUMN "nft_transfers"."tx_hash" IS 'Transaction of the NFT item that processed the transfer (the key).';
COMMENT ON COLUMN "nft_transfers"."tx_lt" IS 'Logical time of that transaction.';
COMMENT ON COLUMN "nft_transfers"."tx_time" IS 'Block time of that transaction.';
COMMENT ON COLUMN "nft_transfers"."block_date" IS 'UTC day of tx_time.';
COMMENT ON COLUMN "nft_transfers"."tx_aborted" IS 'Whether that transaction aborted: then the owner did not change.';
COMMENT ON COLUMN "nft_transfers"."query_id" IS 'Query id the old owner chose (u64).';
COMMENT ON COLUMN "nft_transfers"."nft_item" IS 'NFT item transferred.';
COMMENT ON COLUMN "nft_transfers"."collection" IS 'Collection of the item (null for an item outside any collection).';
COMMENT ON COLUMN "nft_transfers"."old_owner" IS 'Owner before the transfer (who sent it).';
COMMENT ON COLUMN "nft_transfers"."new_owner" IS 'Owner after the transfer.';
COMMENT ON COLUMN "nft_transfers"."response_destination" IS 'Where the excess TON goes.';
COMMENT ON COLUMN "nft_transfers"."forward_amount" IS 'TON forwarded to the new owner with the ownership notification, nanoton.';
COMMENT ON COLUMN "nft_transfers"."forward_payload" IS 'Forward payload as a base64 BoC.';
COMMENT ON COLUMN "nft_transfers"."comment" IS 'Text comment of the forward payload (opcode 0 + text), decoded.';
COMMENT ON COLUMN "nft_transfers"."custom_payload" IS 'Custom payload as a base64 BoC.';
COMMENT ON COLUMN "nft_transfers"."trace_id" IS 'Trace of the transfer.';

-- Key ("cycle_start_time"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "validator_cycles" (
  "cycle_start_time" TIMESTAMPTZ NOT NULL,
  "cycle_end_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "election_id" BIGINT,
  "total" INTEGER NOT NULL,
  "main" INTEGER NOT NULL,
  "total_weight" UBIGINT NOT NULL,
  "total_stake" DECIMAL(38,0),
  "min_stake" DECIMAL(38,0),
  "max_stake" DECIMAL(38,0),
  "validators_elected_for" INTEGER NOT NULL,
  "elections_start_before" INTEGER NOT NULL,
  "elections_end_before" INTEGER NOT NULL,
  "stake_held_for" INTEGER NOT NULL,
  "max_validators" INTEGER NOT NULL,
  "max_main_validators" INTEGER NOT NULL,
  "min_validators" INTEGER NOT NULL,
  "min_stake_limit" DECIMAL(38,0) NOT NULL,
  "max_stake_limit" DECIMAL(38,0) NOT NULL,
  "min_total_stake" DECIMAL(38,0) NOT NULL,
  "max_stake_factor" INTEGER NOT NULL
);
COMMENT ON TABLE "validator_cycles" IS 'One row per validation cycle: its time span, the election that chose its set, the set totals and the elector configuration (parameters 15-17) it ran under.';
COMMENT ON COLUMN "validator_cycles"."cycle_start_time" IS 'Time the cycle starts (utime_since of its validator set).';
COMMENT ON COLUMN "validator_cycles"."cycle_end_time" IS 'Time the cycle ends (utime_until of its validator set).';
COMMENT ON COLUMN "validator_cycles"."block_date" IS 'UTC day of cycle_start_time.';
COMMENT ON COLUMN "validator_cycles"."election_id" IS 'Election that chose the set (the unix time its validation round starts).';
COMMENT ON COLUMN "validator_cycles"."total" IS 'Validators in the set.';
COMMENT ON COLUMN "validator_cycles"."main" IS 'Validators of the set that also validate the masterchain.';
COMMENT ON COLUMN "validator_cycles"."total_weight" IS 'Sum of the validators'' weights.';
COMMENT ON COLUMN "validator_cycles"."total_stake" IS 'Sum of the validators'' stakes, nanoton.';
COMMENT ON COLUMN "validator_cycles"."min_stake" IS 'Smallest stake in the set, nanoton.';
COMMENT ON COLUMN "validator_cycles"."max_stake" IS 'Largest stake in the set, nanoton.';
COMMENT ON COLUMN "validator_cycles"."validators_elected_for" IS 'Seconds a set validates (config parameter 15).';
COMMENT ON COLUMN "validator_cycles"."elections_start_before" IS 'Seconds before a cycle starts that its elections open (parameter 15).';
COMMENT ON COLUMN "validator_cycles"."elections_end_before" IS 'Seconds before a cycle starts that its elections close (parameter 15).';
COMMENT ON COLUMN "validator_cycles"."stake_held_for" IS 'Seconds stakes stay frozen after the cycle ends (parameter 15).';
COMMENT ON COLUMN "validator_cycles"."max_validators" IS 'Largest set allowed (parameter 16).';
COMMENT ON COLUMN "validator_cycles"."max_main_validators" IS 'Most masterchain validators allowed (parameter 16).';
COMMENT ON COLUMN "validator_cycles"."min_validators" IS 'Smallest set allowed (parameter 16).';
COMMENT ON COLUMN "validator_cycles"."min_stake_limit" IS 'Smallest stake allowed, nanoton (parameter 17).';
COMMENT ON COLUMN "validator_cycles"."max_stake_limit" IS 'Largest stake allowed, nanoton (parameter 17).';
COMMENT ON COLUMN "validator_cycles"."min_total_stake" IS 'Smallest total stake of a set, nanoton (parameter 17).';
COMMENT ON COLUMN "validator_cycles"."max_stake_factor" IS 'Largest max_factor a validator may set, times 65536 (parameter 17).';

-- Key ("cycle_start_time", "validator_index"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "validator_cycle_members" (
  "cycle_start_time" TIMESTAMPTZ NOT NULL,
  "validator_index" INTEGER NOT NULL,
  "block_date" DATE NOT NULL,
  "validator_pubkey" VARCHAR NOT NULL,
  "adnl_addr" VARCHAR,
  "weight" UBIGINT NOT NULL,
  "stake_holder" VARCHAR,
  "stake" DECIMAL(38,0),
  "max_factor" INTEGER,
  "complaints" INTEGER NOT NULL
);
COMMENT ON TABLE "validator_cycle_members" IS 'One row per validator of a cycle''s set, keyed by (cycle_start_time, validator_index).';
COMMENT ON COLUMN "validator_cycle_members"."cycle_start_time" IS 'Start of the cycle (joins validator_cycles).';
COMMENT ON COLUMN "validator_cycle_members"."validator_index" IS 'Index of the validator in the set (by stake, largest first).';
COMMENT ON COLUMN "validator_cycle_members"."block_date" IS 'UTC day of cycle_start_time.';
COMMENT ON COLUMN "validator_cycle_members"."validator_pubkey" IS 'Validator public key (hex).';
COMMENT ON COLUMN "validator_cycle_members"."adnl_addr" IS 'Validator ADNL address (hex).';
COMMENT ON COLUMN "validator_cycle_members"."weight" IS 'Validator weight in the set (its share of total_weight).';
COMMENT ON COLUMN "validator_cycle_members"."stake_holder" IS 'Wallet or pool whose stake elected the validator.';
COMMENT ON COLUMN "validator_cycle_members"."stake" IS 'Stake of the validator, nanoton.';
COMMENT ON COLUMN "validator_cycle_members"."max_factor" IS 'Validator max_factor, times 65536.';
COMMENT ON COLUMN "validator_cycle_members"."complaints" IS 'Complaints filed against the validator in the cycle.';

-- Key ("election_id"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "validator_elections" (
  "election_id" BIGINT NOT NULL,
  "elect_close_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "min_stake" DECIMAL(38,0) NOT NULL,
  "total_stake" DECIMAL(38,0) NOT NULL,
  "total_participants" INTEGER NOT NULL,
  "failed" BOOLEAN NOT NULL,
  "finished" BOOLEAN NOT NULL
);
COMMENT ON TABLE "validator_elections" IS 'One row per election of the elector, keyed by election_id, read once it is finished.';
COMMENT ON COLUMN "validator_elections"."election_id" IS 'Election id: the unix time the elected set starts validating (validator_cycles.election_id).';
COMMENT ON COLUMN "validator_elections"."elect_close_time" IS 'Time the election stopped taking stakes.';
COMMENT ON COLUMN "validator_elections"."block_date" IS 'UTC day of election_id (the day the elected set starts validating; the stream''s position).';
COMMENT ON COLUMN "validator_elections"."min_stake" IS 'Smallest stake the election accepted, nanoton.';
COMMENT ON COLUMN "validator_elections"."total_stake" IS 'Sum of the accepted stakes, nanoton.';
COMMENT ON COLUMN "validator_elections"."total_participants" IS 'Stakes accepted.';
COMMENT ON COLUMN "validator_elections"."failed" IS 'Whether the election failed (no set elected).';
COMMENT ON COLUMN "validator_elections"."finished" IS 'Whether the election is over (always true: the stream reads an election once it is).';

-- Key ("election_id", "validator_pubkey"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "validator_election_participants" (
  "election_id" BIGINT NOT NULL,
  "validator_pubkey" VARCHAR NOT NULL,
  "block_date" DATE NOT NULL,
  "stake_holder" VARCHAR NOT NULL,
  "adnl_addr" VARCHAR,
  "stake" DECIMAL(38,0) NOT NULL,
  "max_factor" INTEGER NOT NULL,
  "validator_index" INTEGER
);
COMMENT ON TABLE "validator_election_participants" IS 'One row per stake accepted in an election, keyed by (election_id, validator_pubkey).';
COMMENT ON COLUMN "validator_election_participants"."election_id" IS 'Election the stake was made in (joins validator_elections).';
COMMENT ON COLUMN "validator_election_participants"."validator_pubkey" IS 'Validator public key (hex) the stake is for.';
COMMENT ON COLUMN "validator_election_participants"."block_date" IS 'UTC day of the election''s election_id.';
COMMENT ON COLUMN "validator_election_participants"."stake_holder" IS 'Wallet or pool that staked.';
COMMENT ON COLUMN "validator_election_participants"."adnl_addr" IS 'Validator ADNL address (hex).';
COMMENT ON COLUMN "validator_election_participants"."stake" IS 'Stake accepted, nanoton.';
COMMENT ON COLUMN "validator_election_participants"."max_factor" IS 'Validator max_factor, times 65536.';
COMMENT ON COLUMN "validator_election_participants"."validator_index" IS 'Index of the validator in the elected set, when the service gives it.';

-- Key ("trace_id"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "traces" (
  "trace_id" VARCHAR NOT NULL,
  "external_hash" VARCHAR,
  "start_lt" UBIGINT NOT NULL,
  "end_lt" UBIGINT NOT NULL,
  "start_time" TIMESTAMPTZ NOT NULL,
  "end_time" TIMESTAMPTZ NOT NULL,
  "block_date" DATE NOT NULL,
  "mc_seqno_start" INTEGER NOT NULL,
  "mc_seqno_end" INTEGER NOT NULL,
  "tx_count" INTEGER NOT NULL,
  "msg_count" INTEGER NOT NULL,
  "trace_state" VARCHAR NOT NULL,
  "classification_state" VARCHAR NOT NULL
);
COMMENT ON TABLE "traces" IS 'One row per complete trace: the tree of transactions one external message (or a tick-tock) set off, keyed by trace_id; its transactions carry the same trace_id. A trace is stored once complete and its row replaced when read again (classification comes later).';
COMMENT ON COLUMN "traces"."trace_id" IS 'Trace id: the hash of its first transaction (the key).';
COMMENT ON COLUMN "traces"."external_hash" IS 'Hash of the external message that started the trace (null for a tick-tock).';
COMMENT ON COLUMN "traces"."start_lt" IS 'Logical time of its first transaction.';
COMMENT ON COLUMN "traces"."end_lt" IS 'Logical time of its last transaction, when the trace completed: the position the stream pages by.';
COMMENT ON COLUMN "traces"."start_time" IS 'Time of its first transaction.';
COMMENT ON COLUMN "traces"."end_time" IS 'Time of its last transaction.';
COMMENT ON COLUMN "traces"."block_date" IS 'UTC day of end_time.';
COMMENT ON COLUMN "traces"."mc_seqno_start" IS 'Masterchain block holding its first transaction.';
COMMENT ON COLUMN "traces"."mc_seqno_end" IS 'Masterchain block in which it completed (joins actions.trace_mc_seqno_end).';
COMMENT ON COLUMN "traces"."tx_count" IS 'Transactions in the trace.';
COMMENT ON COLUMN "traces"."msg_count" IS 'Messages in the trace as the indexer counts them (the external message that started it included).';
COMMENT ON COLUMN "traces"."trace_state" IS 'complete (the stream stores no other state; pending and broken traces are left out).';
COMMENT ON COLUMN "traces"."classification_state" IS 'Whether the indexer has classified its actions: unclassified, ok, failed or broken; unknown values kept as sent. Re-read over actions_overlap.';

-- Key ("jetton_master"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "jetton_masters" (
  "jetton_master" VARCHAR NOT NULL,
  "symbol" VARCHAR,
  "name" VARCHAR,
  "decimals" INTEGER,
  "description" VARCHAR,
  "image" VARCHAR,
  "metadata_valid" BOOLEAN,
  "is_scam" BOOLEAN,
  "total_supply" DECIMAL(38,0) NOT NULL,
  "mintable" BOOLEAN,
  "admin" VARCHAR,
  "jetton_wallet_code_hash" VARCHAR,
  "code_hash" VARCHAR,
  "data_hash" VARCHAR,
  "last_tx_lt" UBIGINT NOT NULL,
  "snapshot_time" TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE "jetton_masters" IS 'One row per jetton master (a token) as of its snapshot, with the token metadata the service indexed; upserted by address, and deleted once the service no longer lists it.';
COMMENT ON COLUMN "jetton_masters"."jetton_master" IS 'Jetton master contract (the token; the key).';
COMMENT ON COLUMN "jetton_masters"."symbol" IS 'Ticker from the indexed metadata (e.g. USD₮); null when the service has none.';
COMMENT ON COLUMN "jetton_masters"."name" IS 'Token name from the indexed metadata.';
COMMENT ON COLUMN "jetton_masters"."decimals" IS 'Decimals of the token: the indexed metadata''s, else the on-chain content''s; null when neither names them (TEP-64 then means 9).';
COMMENT ON COLUMN "jetton_masters"."description" IS 'Token description from the indexed metadata.';
COMMENT ON COLUMN "jetton_masters"."image" IS 'Token image URL from the indexed metadata.';
COMMENT ON COLUMN "jetton_masters"."metadata_valid" IS 'Whether the service found the token metadata valid; null when it sent none.';
COMMENT ON COLUMN "jetton_masters"."is_scam" IS 'Whether the service marks the token as a scam; null when it says nothing.';
COMMENT ON COLUMN "jetton_masters"."total_supply" IS 'Total supply in raw jetton units, exact.';
COMMENT ON COLUMN "jetton_masters"."mintable" IS 'Whether the admin can still mint.';
COMMENT ON COLUMN "jetton_masters"."admin" IS 'Admin address; null when the token has none.';
COMMENT ON COLUMN "jetton_masters"."jetton_wallet_code_hash" IS 'Code hash of the token''s jetton wallets.';
COMMENT ON COLUMN "jetton_masters"."code_hash" IS 'Code hash of the master contract.';
COMMENT ON COLUMN "jetton_masters"."data_hash" IS 'Data hash of the master contract at its last transaction.';
COMMENT ON COLUMN "jetton_masters"."last_tx_lt" IS 'Logical time of the master''s last transaction the service had indexed.';
COMMENT ON COLUMN "jetton_masters"."snapshot_time" IS 'When the snapshot holding this row was taken.';

-- Key ("jetton_wallet"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "jetton_wallets" (
  "jetton_wallet" VARCHAR NOT NULL,
  "owner" VARCHAR NOT NULL,
  "jetton_master" VARCHAR NOT NULL,
  "balance" DECIMAL(38,0) NOT NULL,
  "last_tx_lt" UBIGINT NOT NULL,
  "code_hash" VARCHAR,
  "data_hash" VARCHAR,
  "snapshot_time" TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE "jetton_wallets" IS 'One row per jetton wallet as of its snapshot: the current balance of one owner in one jetton; upserted by wallet address, and deleted once the service no longer lists it.';
COMMENT ON COLUMN "jetton_wallets"."jetton_wallet" IS 'Jetton wallet contract (the key).';
COMMENT ON COLUMN "jetton_wallets"."owner" IS 'Owner of the wallet.';
COMMENT ON COLUMN "jetton_wallets"."jetton_master" IS 'Jetton master (the token).';
COMMENT ON COLUMN "jetton_wallets"."balance" IS 'Balance in raw jetton units (divide by 10^decimals of the jetton, see jetton_masters), exact.';
COMMENT ON COLUMN "jetton_wallets"."last_tx_lt" IS 'Logical time of the wallet''s last transaction the service had indexed.';
COMMENT ON COLUMN "jetton_wallets"."code_hash" IS 'Code hash of the wallet contract.';
COMMENT ON COLUMN "jetton_wallets"."data_hash" IS 'Data hash of the wallet contract at its last transaction.';
COMMENT ON COLUMN "jetton_wallets"."snapshot_time" IS 'When the snapshot holding this row was taken.';

-- Key ("nft_item"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "nft_items" (
  "nft_item" VARCHAR NOT NULL,
  "collection" VARCHAR,
  "nft_index" VARCHAR NOT NULL,
  "owner" VARCHAR,
  "real_owner" VARCHAR,
  "on_sale" BOOLEAN,
  "sale_contract" VARCHAR,
  "init" BOOLEAN,
  "content" JSON,
  "last_tx_lt" UBIGINT NOT NULL,
  "code_hash" VARCHAR,
  "data_hash" VARCHAR,
  "snapshot_time" TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE "nft_items" IS 'One row per NFT item as of its snapshot: its collection, index, owner and content; upserted by item address, and deleted once the service no longer lists it in the scope.';
COMMENT ON COLUMN "nft_items"."nft_item" IS 'NFT item contract (the key).';
COMMENT ON COLUMN "nft_items"."collection" IS 'Collection of the item; null for an item outside any collection.';
COMMENT ON COLUMN "nft_items"."nft_index" IS 'Index of the item in its collection, as a decimal string (indexes reach 2^256: Telegram usernames'' are hashes).';
COMMENT ON COLUMN "nft_items"."owner" IS 'Owner of the item (the sale contract while it is on sale; see real_owner).';
COMMENT ON COLUMN "nft_items"."real_owner" IS 'Owner behind the sale contract while the item is on sale; null otherwise or when the service does not say.';
COMMENT ON COLUMN "nft_items"."on_sale" IS 'Whether the item is on sale.';
COMMENT ON COLUMN "nft_items"."sale_contract" IS 'Sale contract holding the item while it is on sale.';
COMMENT ON COLUMN "nft_items"."init" IS 'Whether the item is initialised.';
COMMENT ON COLUMN "nft_items"."content" IS 'Item content as the service sent it (e.g. {"uri": …}).';
COMMENT ON COLUMN "nft_items"."last_tx_lt" IS 'Logical time of the item''s last transaction the service had indexed.';
COMMENT ON COLUMN "nft_items"."code_hash" IS 'Code hash of the item contract.';
COMMENT ON COLUMN "nft_items"."data_hash" IS 'Data hash of the item contract at its last transaction.';
COMMENT ON COLUMN "nft_items"."snapshot_time" IS 'When the snapshot holding this row was taken.';

-- Key ("collection"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "nft_collections" (
  "collection" VARCHAR NOT NULL,
  "owner" VARCHAR,
  "next_item_index" DECIMAL(38,0),
  "content" JSON,
  "last_tx_lt" UBIGINT NOT NULL,
  "code_hash" VARCHAR,
  "data_hash" VARCHAR,
  "snapshot_time" TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE "nft_collections" IS 'One row per NFT collection as of its snapshot: its owner, next item index and content; upserted by collection address, and deleted once the service no longer lists it in the scope.';
COMMENT ON COLUMN "nft_collections"."collection" IS 'NFT collection contract (the key; `collection` in nft_items and nft_transfers).';
COMMENT ON COLUMN "nft_collections"."owner" IS 'Owner of the collection; null when it has none.';
COMMENT ON COLUMN "nft_collections"."next_item_index" IS 'Index the collection gives its next item (the count of items minted in order); -1 for a collection whose items are not numbered in order (TON DNS, Telegram usernames).';
COMMENT ON COLUMN "nft_collections"."content" IS 'Collection content as the service sent it (e.g. {"uri": …}).';
COMMENT ON COLUMN "nft_collections"."last_tx_lt" IS 'Logical time of the collection''s last transaction the service had indexed.';
COMMENT ON COLUMN "nft_collections"."code_hash" IS 'Code hash of the collection contract.';
COMMENT ON COLUMN "nft_collections"."data_hash" IS 'Data hash of the collection contract at its last transaction.';
COMMENT ON COLUMN "nft_collections"."snapshot_time" IS 'When the snapshot holding this row was taken.';

-- Key ("address"): unique, kept so by chain-etl's delete-then-insert; no index.
CREATE TABLE IF NOT EXISTS "addresses" (
  "address" VARCHAR NOT NULL,
  "user_friendly" VARCHAR,
  "domain" VARCHAR,
  "interfaces" VARCHAR[] NOT NULL
);
COMMENT ON TABLE "addresses" IS 'One row per address seen in an address book of any response.';
COMMENT ON COLUMN "addresses"."address" IS 'Raw form wc:HEX, upper case: the join key of every address column.';
COMMENT ON COLUMN "addresses"."user_friendly" IS 'User-friendly form as the API prints it (bounceable or not per contract type).';
COMMENT ON COLUMN "addresses"."domain" IS 'DNS name pointing at the address, if any.';
COMMENT ON COLUMN "addresses"."interfaces" IS 'Contract interfaces the indexer recognised, e.g. wallet_v4r2, jetton_wallet.';

CREATE TABLE IF NOT EXISTS "_etl_meta" (
  "key" VARCHAR NOT NULL,
  "value" VARCHAR NOT NULL,
  PRIMARY KEY ("key")
);
COMMENT ON TABLE "_etl_meta" IS 'Facts about the warehouse itself, such as the schema version that wrote it.';
COMMENT ON COLUMN "_etl_meta"."key" IS 'Fact name, e.g. schema_version.';
COMMENT ON COLUMN "_etl_meta"."value" IS 'Fact value as text.';

CREATE TABLE IF NOT EXISTS "_etl_checkpoints" (
  "stream" VARCHAR NOT NULL,
  "position" VARCHAR NOT NULL,
  "updated_at" TIMESTAMPTZ NOT NULL,
  PRIMARY KEY ("stream")
);
COMMENT ON TABLE "_etl_checkpoints" IS 'Where each stream stopped: committed in the same unit as the rows it covers.';
COMMENT ON COLUMN "_etl_checkpoints"."stream" IS 'Stream name.';
COMMENT ON COLUMN "_etl_checkpoints"."position" IS 'Stream-defined position (usually JSON) of the last committed row.';
COMMENT ON COLUMN "_etl_checkpoints"."updated_at" IS 'When the checkpoint was committed.';

CREATE TABLE IF NOT EXISTS "_etl_runs" (
  "run_id" VARCHAR NOT NULL,
  "command" VARCHAR NOT NULL,
  "started_at" TIMESTAMPTZ NOT NULL,
  "ended_at" TIMESTAMPTZ,
  "status" VARCHAR NOT NULL,
  "rows" JSON NOT NULL,
  "rows_replaced" JSON,
  "requests" JSON NOT NULL,
  "retries" INTEGER NOT NULL,
  "error" VARCHAR,
  "tip_seqno" INTEGER,
  "tip_time" TIMESTAMPTZ,
  PRIMARY KEY ("run_id")
);
COMMENT ON TABLE "_etl_runs" IS 'One row per command run: when, how it ended, and what it did.';
COMMENT ON COLUMN "_etl_runs"."run_id" IS 'Unique id of the run.';
COMMENT ON COLUMN "_etl_runs"."command" IS 'Command line verb, e.g. sync or backfill.';
COMMENT ON COLUMN "_etl_runs"."started_at" IS 'When the run started.';
COMMENT ON COLUMN "_etl_runs"."ended_at" IS 'When the run ended; null while running.';
COMMENT ON COLUMN "_etl_runs"."status" IS 'running, ok, failed, interrupted, or abandoned (the process died mid-run: killed, or a second SIGINT/SIGTERM).';
COMMENT ON COLUMN "_etl_runs"."rows" IS 'New rows committed per stream (rows of a key the warehouse did not hold), {"stream": count}; the time of each snapshot taken under "snapshot_time", {"stream": "ISO time"}. Runs of schema version 2 and earlier counted replaced rows here too.';
COMMENT ON COLUMN "_etl_runs"."rows_replaced" IS 'Rows committed per stream that took the place of a stored row of the same key (the actions overlap re-read, a replayed page, a snapshot re-read), {"stream": count}; null for runs of schema version 2 and earlier, which did not count them apart.';
COMMENT ON COLUMN "_etl_runs"."requests" IS 'HTTP requests made per stream, {"stream": count}.';
COMMENT ON COLUMN "_etl_runs"."retries" IS 'HTTP retries over the whole run.';
COMMENT ON COLUMN "_etl_runs"."error" IS 'Error message (with causes) when the run failed.';
COMMENT ON COLUMN "_etl_runs"."tip_seqno" IS 'The settled tip the run read up to (masterchain seqno); null until the run has asked for it.';
COMMENT ON COLUMN "_etl_runs"."tip_time" IS 'The settled tip''s block time: ended_at - tip_time is how far behind the chain the warehouse was when the run ended.';

CREATE TABLE IF NOT EXISTS "_etl_rejects" (
  "stream" VARCHAR NOT NULL,
  "reject_id" VARCHAR NOT NULL,
  "endpoint" VARCHAR NOT NULL,
  "params" JSON NOT NULL,
  "raw" VARCHAR NOT NULL,
  "reason" VARCHAR NOT NULL,
  "seen_at" TIMESTAMPTZ NOT NULL,
  PRIMARY KEY ("stream", "reject_id")
);
COMMENT ON TABLE "_etl_rejects" IS 'Dead letters: API items that could not be turned into rows, kept with the reason.';
COMMENT ON COLUMN "_etl_rejects"."stream" IS 'Stream that rejected the item.';
COMMENT ON COLUMN "_etl_rejects"."reject_id" IS 'sha256 (hex) of endpoint and raw: an item read again (replay, page edge, overlap) is one reject, with the params of its last read.';
COMMENT ON COLUMN "_etl_rejects"."endpoint" IS 'API path that returned the item, e.g. /api/v3/transactions.';
COMMENT ON COLUMN "_etl_rejects"."params" IS 'The request: the page (from, to, limit, offset) and the stream filters.';
COMMENT ON COLUMN "_etl_rejects"."raw" IS 'The item as received (JSON text).';
COMMENT ON COLUMN "_etl_rejects"."reason" IS 'Why it was rejected (validation message).';
COMMENT ON COLUMN "_etl_rejects"."seen_at" IS 'When it was last rejected.';

CREATE OR REPLACE MACRO "ton"(nanoton) AS CAST(nanoton AS DECIMAL(38,0)) * CAST(0.000000001 AS DECIMAL(10,9));
COMMENT ON MACRO "ton" IS 'Nanoton to TON, exact: DECIMAL(38,9) (every DECIMAL(38,0) amount fits), never DOUBLE; ton(1) = 0.000000001.';
CREATE OR REPLACE VIEW "jetton_transfers_readable" AS
SELECT
  t.tx_hash,
  t.tx_time,
  t.tx_lt,
  t.block_date,
  t.jetton_master,
  m.user_friendly AS jetton_master_friendly,
  j.symbol,
  j.decimals,
  t.source,
  s.user_friendly AS source_friendly,
  t.destination,
  d.user_friendly AS destination_friendly,
  t.amount,
  CASE WHEN j.decimals IS NULL OR j.decimals > 18 OR CAST(t.amount AS HUGEINT) >= CAST('1' || repeat('0', 20 + j.decimals) AS HUGEINT) THEN NULL
    ELSE CAST(CAST(t.amount AS HUGEINT) * CAST('1' || repeat('0', 18 - j.decimals) AS HUGEINT) AS DECIMAL(38,0)) * CAST('0.000000000000000001' AS DECIMAL(18,18)) END AS amount_tokens,
  t.forward_ton_amount,
  t.comment,
  t.query_id,
  t.trace_id
FROM "jetton_transfers" AS t
LEFT JOIN "addresses" AS m ON m.address = t.jetton_master
LEFT JOIN "jetton_masters" AS j ON j.jetton_master = t.jetton_master
LEFT JOIN "addresses" AS s ON s.address = t.source
LEFT JOIN "addresses" AS d ON d.address = t.destination;
COMMENT ON VIEW "jetton_transfers_readable" IS 'Jetton transfers with the user-friendly forms of the jetton master, source and destination, the token''s symbol and decimals (from jetton_masters) and amount_tokens, the amount scaled by decimals exactly as DECIMAL(38,18): NULL where it is not exact in that type (decimals unknown or above 18, or 10^20 tokens or more), the raw amount beside it. Without jetton_masters in the warehouse, the same view without symbol, decimals and amount_tokens.';
CREATE OR REPLACE VIEW "daily_transactions" AS
SELECT
  block_date AS day,
  count(*) AS transactions,
  count(*) FILTER (WHERE aborted) AS aborted,
  count(DISTINCT account) AS accounts,
  sum(total_fees) AS total_fees
FROM "transactions"
GROUP BY day;
COMMENT ON VIEW "daily_transactions" IS 'Per UTC day: transactions, aborted transactions, distinct accounts and total fees (nanoton).';
CREATE OR REPLACE VIEW "account_actions" AS
SELECT aa.account, a.*
FROM "action_accounts" AS aa
JOIN "actions" AS a ON a.action_id = aa.action_id;
COMMENT ON VIEW "account_actions" IS 'Every action once per account it involves: filter by account to get the history of a wallet or contract.';
CREATE OR REPLACE VIEW "_etl_days" AS
WITH
checkpoint AS (SELECT stream, position FROM "_etl_checkpoints" WHERE json_valid(position)),
covered AS (SELECT stream, CAST(r[1] AS HUGEINT) AS lo, CAST(r[2] AS HUGEINT) AS hi, least(CAST(r[2] AS HUGEINT), coalesce(CAST(position->>'open' AS HUGEINT) - 1, CAST(r[2] AS HUGEINT))) AS settled
  FROM (SELECT stream, position, unnest(CAST(json_extract(position, '$.covered') AS VARCHAR[][])) AS r FROM checkpoint)),
unchecked AS (SELECT substr(key, 11) AS table_name, CAST(value->>'min' AS HUGEINT) AS lo, CAST(value->>'max' AS HUGEINT) AS hi
  FROM "_etl_meta" WHERE starts_with(key, 'unchecked:') AND json_valid(value)),
spans AS (SELECT 'transactions' AS stream, min(p.s) AS seen_from, max(p.s) AS seen_to, min(p.s) + 1 AS whole_from, max(p.s) FILTER (WHERE p.lt <= c.settled) - 1 AS whole_to FROM covered AS c JOIN (SELECT "tx_lt" AS lt, CAST(floor(epoch("tx_time")) AS BIGINT) AS s FROM "transactions" UNION ALL SELECT "tx_lt" AS lt, CAST(floor(epoch("tx_time")) AS BIGINT) AS s FROM "messages" UNION ALL SELECT "start_lt" AS lt, CAST(floor(epoch("block_time")) AS BIGINT) AS s FROM "blocks" WHERE workchain = -1) AS p ON p.lt BETWEEN c.lo AND c.hi WHERE c.stream = 'transactions' GROUP BY c.lo, c.hi
  UNION ALL SELECT 'actions' AS stream, min(p.s) AS seen_from, max(p.s) AS seen_to, min(p.s) + 1 AS whole_from, max(p.s) FILTER (WHERE p.lt <= c.settled) - 1 AS whole_to FROM covered AS c JOIN (SELECT "trace_end_lt" AS lt, CAST(floor(epoch("trace_end_time")) AS BIGINT) AS s FROM "actions" UNION ALL SELECT "trace_end_lt" AS lt, CAST(floor(epoch("trace_end_time")) AS BIGINT) AS s FROM "action_accounts" UNION ALL SELECT "start_lt" AS lt, CAST(floor(epoch("block_time")) AS BIGINT) AS s FROM "blocks" WHERE workchain = -1) AS p ON p.lt BETWEEN c.lo AND c.hi WHERE c.stream = 'actions' GROUP BY c.lo, c.hi
  UNION ALL SELECT 'jetton_transfers' AS stream, min(p.s) AS seen_from, max(p.s) AS seen_to, min(p.s) + 1 AS whole_from, max(p.s) FILTER (WHERE p.lt <= c.settled) - 1 AS whole_to FROM covered AS c JOIN (SELECT "tx_lt" AS lt, CAST(floor(epoch("tx_time")) AS BIGINT) AS s FROM "jetton_transfers" UNION ALL SELECT "start_lt" AS lt, CAST(floor(epoch("block_time")) AS BIGINT) AS s FROM "blocks" WHERE workchain = -1) AS p ON p.lt BETWEEN c.lo AND c.hi WHERE c.stream = 'jetton_transfers' GROUP BY c.lo, c.hi
  UNION ALL SELECT 'validator_events' AS stream, CAST(lo AS BIGINT) AS seen_from, CAST(hi AS BIGINT) AS seen_to, CAST(lo AS BIGINT) AS whole_from, CAST(settled AS BIGINT) AS whole_to FROM covered WHERE stream = 'validator_events'
  UNION ALL SELECT 'blocks' AS stream, CAST(lo AS BIGINT) AS seen_from, CAST(hi AS BIGINT) AS seen_to, CAST(lo AS BIGINT) AS whole_from, CAST(settled AS BIGINT) AS whole_to FROM covered WHERE stream = 'blocks'
  UNION ALL SELECT 'jetton_burns' AS stream, min(p.s) AS seen_from, max(p.s) AS seen_to, min(p.s) + 1 AS whole_from, max(p.s) FILTER (WHERE p.lt <= c.settled) - 1 AS whole_to FROM covered AS c JOIN (SELECT "tx_lt" AS lt, CAST(floor(epoch("tx_time")) AS BIGINT) AS s FROM "jetton_burns" UNION ALL SELECT "start_lt" AS lt, CAST(floor(epoch("block_time")) AS BIGINT) AS s FROM "blocks" WHERE workchain = -1) AS p ON p.lt BETWEEN c.lo AND c.hi WHERE c.stream = 'jetton_burns' GROUP BY c.lo, c.hi
  UNION ALL SELECT 'nft_transfers' AS stream, min(p.s) AS seen_from, max(p.s) AS seen_to, min(p.s) + 1 AS whole_from, max(p.s) FILTER (WHERE p.lt <= c.settled) - 1 AS whole_to FROM covered AS c JOIN (SELECT "tx_lt" AS lt, CAST(floor(epoch("tx_time")) AS BIGINT) AS s FROM "nft_transfers" UNION ALL SELECT "start_lt" AS lt, CAST(floor(epoch("block_time")) AS BIGINT) AS s FROM "blocks" WHERE workchain = -1) AS p ON p.lt BETWEEN c.lo AND c.hi WHERE c.stream = 'nft_transfers' GROUP BY c.lo, c.hi
  UNION ALL SELECT 'validator_cycles' AS stream, CAST(lo AS BIGINT) AS seen_from, CAST(hi AS BIGINT) AS seen_to, CAST(lo AS BIGINT) AS whole_from, CAST(settled AS BIGINT) AS whole_to FROM covered WHERE stream = 'validator_cycles'
  UNION ALL SELECT 'validator_elections' AS stream, CAST(lo AS BIGINT) AS seen_from, CAST(hi AS BIGINT) AS seen_to, CAST(lo AS BIGINT) AS whole_from, CAST(settled AS BIGINT) AS whole_to FROM covered WHERE stream = 'validator_elections'
  UNION ALL SELECT 'traces' AS stream, min(p.s) AS seen_from, max(p.s) AS seen_to, min(p.s) + 1 AS whole_from, max(p.s) FILTER (WHERE p.lt <= c.settled) - 1 AS whole_to FROM covered AS c JOIN (SELECT "end_lt" AS lt, CAST(floor(epoch("end_time")) AS BIGINT) AS s FROM "traces" UNION ALL SELECT "start_lt" AS lt, CAST(floor(epoch("block_time")) AS BIGINT) AS s FROM "blocks" WHERE workchain = -1) AS p ON p.lt BETWEEN c.lo AND c.hi WHERE c.stream = 'traces' GROUP BY c.lo, c.hi),
days AS (SELECT DISTINCT stream, DATE '1970-01-01' + CAST(day AS INTEGER) AS "block_date"
  FROM (SELECT stream, unnest(range(seen_from // 86400, seen_to // 86400 + 1)) AS day FROM spans)),
stored AS (SELECT 'transactions' AS table_name, 'transactions' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."tx_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "transactions" AS t LEFT JOIN unchecked AS u ON u.table_name = 'transactions' GROUP BY t."block_date"
  UNION ALL SELECT 'messages' AS table_name, 'transactions' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."tx_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "messages" AS t LEFT JOIN unchecked AS u ON u.table_name = 'messages' GROUP BY t."block_date"
  UNION ALL SELECT 'actions' AS table_name, 'actions' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."trace_end_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "actions" AS t LEFT JOIN unchecked AS u ON u.table_name = 'actions' GROUP BY t."block_date"
  UNION ALL SELECT 'action_accounts' AS table_name, 'actions' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."trace_end_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "action_accounts" AS t LEFT JOIN unchecked AS u ON u.table_name = 'action_accounts' GROUP BY t."block_date"
  UNION ALL SELECT 'jetton_transfers' AS table_name, 'jetton_transfers' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."tx_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "jetton_transfers" AS t LEFT JOIN unchecked AS u ON u.table_name = 'jetton_transfers' GROUP BY t."block_date"
  UNION ALL SELECT 'validator_events' AS table_name, 'validator_events' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."tx_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "validator_events" AS t LEFT JOIN unchecked AS u ON u.table_name = 'validator_events' GROUP BY t."block_date"
  UNION ALL SELECT 'blocks' AS table_name, 'blocks' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."start_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "blocks" AS t LEFT JOIN unchecked AS u ON u.table_name = 'blocks' GROUP BY t."block_date"
  UNION ALL SELECT 'jetton_burns' AS table_name, 'jetton_burns' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."tx_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "jetton_burns" AS t LEFT JOIN unchecked AS u ON u.table_name = 'jetton_burns' GROUP BY t."block_date"
  UNION ALL SELECT 'nft_transfers' AS table_name, 'nft_transfers' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."tx_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "nft_transfers" AS t LEFT JOIN unchecked AS u ON u.table_name = 'nft_transfers' GROUP BY t."block_date"
  UNION ALL SELECT 'validator_cycles' AS table_name, 'validator_cycles' AS stream, t."block_date", count(*) AS rows, false AS unverified FROM "validator_cycles" AS t GROUP BY t."block_date"
  UNION ALL SELECT 'validator_cycle_members' AS table_name, 'validator_cycles' AS stream, t."block_date", count(*) AS rows, false AS unverified FROM "validator_cycle_members" AS t GROUP BY t."block_date"
  UNION ALL SELECT 'validator_elections' AS table_name, 'validator_elections' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."election_id" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "validator_elections" AS t LEFT JOIN unchecked AS u ON u.table_name = 'validator_elections' GROUP BY t."block_date"
  UNION ALL SELECT 'validator_election_participants' AS table_name, 'validator_elections' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."election_id" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "validator_election_participants" AS t LEFT JOIN unchecked AS u ON u.table_name = 'validator_election_participants' GROUP BY t."block_date"
  UNION ALL SELECT 'traces' AS table_name, 'traces' AS stream, t."block_date", count(*) AS rows, count(*) FILTER (WHERE t."end_lt" BETWEEN u.lo AND u.hi) > 0 AS unverified FROM "traces" AS t LEFT JOIN unchecked AS u ON u.table_name = 'traces' GROUP BY t."block_date"),
listed AS (SELECT table_name, stream, "block_date" FROM stored
  UNION SELECT t.table_name, t.stream, d."block_date" FROM (VALUES ('transactions', 'transactions'), ('messages', 'transactions'), ('actions', 'actions'), ('action_accounts', 'actions'), ('jetton_transfers', 'jetton_transfers'), ('validator_events', 'validator_events'), ('blocks', 'blocks'), ('jetton_burns', 'jetton_burns'), ('nft_transfers', 'nft_transfers'), ('validator_cycles', 'validator_cycles'), ('validator_cycle_members', 'validator_cycles'), ('validator_elections', 'validator_elections'), ('validator_election_participants', 'validator_elections'), ('traces', 'traces')) AS t(table_name, stream)
  JOIN days AS d USING (stream))
SELECT l.table_name, l."block_date", coalesce(s.rows, 0) AS rows,
  coalesce(NOT s.unverified, true) AND EXISTS (SELECT 1 FROM spans AS p WHERE p.stream = l.stream AND p.whole_from <= (l."block_date" - DATE '1970-01-01') * 86400 AND p.whole_to >= (l."block_date" - DATE '1970-01-01') * 86400 + 86399) AS complete
FROM listed AS l LEFT JOIN stored AS s USING (table_name, "block_date")
ORDER BY l.table_name, l."block_date";
COMMENT ON VIEW "_etl_days" IS 'One row per data table with a block_date and UTC day that the table holds rows of or that lies at least partly inside its stream''s covered ranges: rows (0 for a covered day without rows) and complete, true when the whole day lies inside one covered range of the stream''s checkpoint, before any item the service may still change (the checkpoint''s open position), and no unchecked range of the table (rows written that the stored checks have not passed yet) holds a row of it. WHERE complete keeps whole days only; the newest day stays partial until the coverage has passed its end.';
