#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(ImagefeedCommand.run(Array(CommandLine.arguments.dropFirst())))
