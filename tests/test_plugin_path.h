#pragma once
// TS_TEST_PLUGIN_PATH: the file of the test plug-in (plugins/test_plugin.cpp, kernel set
// "test_plugin"), a compile definition that tests/CMakeLists.txt gives the tests loading it.
#ifndef TS_TEST_PLUGIN_PATH
#error "tests/CMakeLists.txt passes TS_TEST_PLUGIN_PATH (the test plug-in's file)"
#endif
