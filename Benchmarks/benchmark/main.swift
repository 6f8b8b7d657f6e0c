#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(BenchmarkCommand.run(Array(CommandLine.arguments.dropFirst())))
