package org.mpcache.slave.store;

import java.io.OutputStream;
import java.nio.file.Path;

/** A fill's temporary files in its dir, open for writing until the fill closes them. */
public record FillFiles(CacheDir dir, Path data, Path meta, OutputStream dataOut,
    OutputStream metaOut) {
}
