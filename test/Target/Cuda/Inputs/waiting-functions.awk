# Prints the top-level functions of a C++/CUDA file whose bodies wait for the
# device: a stream or device synchronisation, or a blocking copy or memset.
BEGIN { depth = 0; name = ""; hit = 0 }
# Braces of `extern "C" {` and `namespace ... {` blocks do not nest functions.
/^(extern "C"|namespace)[^;]*\{[ \t]*$/ { next }
/^\}[ \t]*\/\/[ \t]*(extern|namespace)/ { next }
{
  line = $0
  sub(/\/\/.*/, "", line)
  if (depth == 0 && match(line, /[A-Za-z_][A-Za-z_0-9]*[ \t]*\(/)) {
    name = substr(line, RSTART, RLENGTH); sub(/[ \t]*\($/, "", name); hit = 0
  }
  if (depth > 0 && line ~ /cudaStreamSynchronize|cudaDeviceSynchronize|cudaMemcpy\(|cudaMemset\(|DeviceToHost/)
    hit = 1
  opens = gsub(/\{/, "{", line); closes = gsub(/\}/, "}", line)
  before = depth; depth += opens - closes
  if (before > 0 && depth == 0) { if (hit) print name; hit = 0 }
}
