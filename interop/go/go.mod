module gcmkit/interop

go 1.21
