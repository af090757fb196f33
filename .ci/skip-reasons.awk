# Sums the "  skipped N: <reason>" lines that vitest.skip-reasons.ts prints at the end of each
# project's run (ANSI colours already stripped) into one list for the workspace, most frequent first.
/^  skipped [0-9]+: / {
  n = $2; sub(/:$/, "", n)
  reason = $0; sub(/^  skipped [0-9]+: /, "", reason)
  count[reason] += n; total += n
}
END {
  if (total == 0) exit
  printf "skipped tests by reason (%d):\n", total
  fflush()
  for (r in count) printf "%7d  %s\n", count[r], r | "sort -k1,1nr -k2"
}
