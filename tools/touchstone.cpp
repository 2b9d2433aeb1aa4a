#include <iostream>
#include "touchstone/touchstone.h"
int main() { std::cout << "touchstone " << ts::kVersion << "\n"; }
