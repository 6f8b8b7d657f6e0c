// What `import IncrementalImage` brings: the core types and every codec, so users need one import.
@_exported import ColorManagement
@_exported import GIFCodec
@_exported import ImageCore
@_exported import JPEGCodec
@_exported import PNGCodec
@_exported import WebPCodec
