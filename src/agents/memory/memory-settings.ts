/** The hybrid memory's numbers (recent messages kept whole, older ones summarised). */
export interface MemorySettings {
  /** Messages kept before older ones are summarised (MAX_MESSAGES, default 10). */
  maxMessages: number;
  /** Messages kept after a summary (KEEP_RECENT, default 5). */
  keepRecent: number;
  /** Summaries kept in the sliding window (MAX_SUMMARIES, default 3). */
  maxSummaries: number;
}

/** The default numbers: summarise at 10 messages, keep the 5 most recent, keep 3 summaries. */
export const defaultMemorySettings: MemorySettings = {
  maxMessages: 10,
  keepRecent: 5,
  maxSummaries: 3,
};
