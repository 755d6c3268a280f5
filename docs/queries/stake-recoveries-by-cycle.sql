-- Each recovered stake tied to the cycle it was held for. The service sends every stake_recovered
-- event with a NULL election_id; the stake it returns is the one of the holder's last cycle that had
-- ended when it recovered (the elector frees a stake once its cycle is over and pays it, with the
-- reward, on request). reward is what came back above the stake. A holder that skipped recovering
-- gets several cycles' stakes back at once: only the last is named. On mainnet a stake stays frozen
-- stake_held_for seconds after its cycle ends; to tie recoveries made in that window to the cycle
-- before, compare c.cycle_end_time + to_seconds(c.stake_held_for) instead (the devnet frees stakes at
-- the cycle's end).
SELECT
  e.tx_hash,
  e.stake_holder,
  e.tx_time AS recovered_time,
  c.election_id,
  c.cycle_start_time,
  c.cycle_end_time,
  m.stake,
  e.amount AS recovered,
  e.amount - m.stake AS reward
FROM validator_events AS e
JOIN validator_cycle_members AS m ON m.stake_holder = e.stake_holder
JOIN validator_cycles AS c USING (cycle_start_time)
WHERE e.type = 'stake_recovered'
  AND c.cycle_end_time <= e.tx_time
QUALIFY row_number() OVER (PARTITION BY e.tx_hash, e.stake_holder ORDER BY c.cycle_start_time DESC) = 1
ORDER BY e.tx_time, e.tx_hash;
