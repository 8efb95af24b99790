package org.mpcache.slave.inputcache;

import java.io.IOException;

import org.mpcache.slave.inputcache.store.CacheDir;

/** Where the parts of the cache report trouble with an SSD dir ({@link DirHealth} acts on it). */
interface DirTrouble {
  /** A call to the dir failed: check the dir (soon, off the caller's thread). */
  void suspect(CacheDir dir, IOException cause);

  /** A call to the dir did not return in time: take the dir out of use now. */
  void hung(CacheDir dir, String what);
}
