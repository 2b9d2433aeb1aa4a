// The source of ts_test_pch, whose precompiled header every test file reuses
// (tests/CMakeLists.txt).
