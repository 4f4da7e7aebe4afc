# ctest: the README shows samples/hello.c as it is (the sample is built and its output checked by
# the test sample_hello, so the README's program is one that compiles and does what it says).
# Run as: cmake -DREADME=<README.md> -DSAMPLE=<samples/hello.c> -P readme_example.cmake
file(READ "${README}" readme)
file(READ "${SAMPLE}" sample)
string(FIND "${readme}" "```c\n${sample}```" at)
if(at EQUAL -1)
  message(FATAL_ERROR "README.md does not show ${SAMPLE} verbatim in a ```c block")
endif()
