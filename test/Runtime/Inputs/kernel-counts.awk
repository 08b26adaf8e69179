# Counts the registry that `fallback-run --list-kernels` prints, one
# registry entry (KernelDef) a line: "Cast DstT in {f32, i32}, SrcT in
# {f32}", "Identity any dtype". Prints the three totals as docs/Kernels.md
# states them: distinct ops, registry entries, and (op, dtype) pairs, where
# an entry counts the dtype combinations its constraints allow (the product
# of the set sizes) and an entry without constraints counts one.
{
  entries++
  if (!($1 in ops)) {
    ops[$1] = 1
    numOps++
  }
  combos = 1
  rest = $0
  while (match(rest, /\{[^}]*\}/)) {
    combos *= split(substr(rest, RSTART + 1, RLENGTH - 2), dtypes, ",")
    rest = substr(rest, RSTART + RLENGTH)
  }
  pairs += combos
}
END {
  printf "**%d ops, %d registry entries, %d (op, dtype) pairs**\n", numOps,
         entries, pairs
}
