//===- ReplayMain.cpp - Runs a fuzz target on given inputs ----------------===//
//
// The main of the replay builds of the fuzz targets (built without libFuzzer
// in every test build): runs LLVMFuzzerTestOneInput once on each file named
// on the command line, so that the committed regression inputs and seed
// corpora run in ctest. A crash or a sanitizer report fails the test; the
// exit code is 0 otherwise.
//
//===----------------------------------------------------------------------===//

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    std::ifstream file(argv[i], std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "replay: cannot read '%s'\n", argv[i]);
      return 2;
    }
    std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(file)),
                               std::istreambuf_iterator<char>());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    std::printf("replay: ok %s\n", argv[i]);
  }
  return 0;
}
