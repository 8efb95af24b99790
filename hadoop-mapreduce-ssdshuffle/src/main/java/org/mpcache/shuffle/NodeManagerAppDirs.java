package org.mpcache.shuffle;

import java.lang.reflect.Field;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalDirAllocator;
import org.apache.hadoop.yarn.server.api.AuxiliaryLocalPathHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts {@link SsdFirstAppDirs} in place of the NodeManager's allocator of its local dirs. The
 * NodeManager places every file it localizes and every container work dir through one allocator,
 * a private field of its {@code LocalDirsHandlerService}, which no setting chooses; an auxiliary
 * service reaches that service through the path handler the NodeManager gives it
 * ({@code ContainerManagerImpl.AuxiliaryLocalPathHandlerImpl}).
 * TestSsdShuffleJobs.aJobWhoseLocalDataFitsTheRoomWritesEveryLocalFileToTheSsd fails, naming this
 * class, if these internals change (docs/architecture.md, "Hadoop internals").
 */
final class NodeManagerAppDirs {
  private static final Logger LOG = LoggerFactory.getLogger(NodeManagerAppDirs.class);
  static final String DIRS_SERVICE_CLASS =
      "org.apache.hadoop.yarn.server.nodemanager.LocalDirsHandlerService";
  /** The path handler's field holding the NodeManager's dirs service. */
  static final String DIRS_SERVICE_FIELD = "dirhandlerService";
  /** The dirs service's allocator of local dirs, and its key of the good ones. */
  static final String ALLOCATOR_FIELD = "localDirsAllocator";
  static final String GOOD_DIRS_KEY_FIELD = "NM_GOOD_LOCAL_DIRS";

  private NodeManagerAppDirs() {
  }

  /**
   * Makes the NodeManager behind {@code handler} place applications' files on the SSD first;
   * false, with a warning naming what is missing, when it cannot (no NodeManager: the handler
   * is null; or its internals changed) and the NodeManager keeps its own placement.
   */
  static boolean preferSsd(AuxiliaryLocalPathHandler handler, Configuration conf) {
    if (handler == null) {
      LOG.info("mpCache: no NodeManager local dirs to place applications' files in");
      return false;
    }
    try {
      Object dirsService = read(handler, DIRS_SERVICE_FIELD);
      Class<?> serviceClass = Class.forName(DIRS_SERVICE_CLASS, false,
          handler.getClass().getClassLoader());
      if (!serviceClass.isInstance(dirsService)) {
        throw new NoSuchFieldException(DIRS_SERVICE_FIELD + " is no " + DIRS_SERVICE_CLASS);
      }
      Field keyField = serviceClass.getDeclaredField(GOOD_DIRS_KEY_FIELD);
      keyField.setAccessible(true);
      Field allocator = serviceClass.getDeclaredField(ALLOCATOR_FIELD);
      allocator.setAccessible(true);
      if (!(allocator.get(dirsService) instanceof LocalDirAllocator)) {
        throw new NoSuchFieldException(ALLOCATOR_FIELD + " holds no LocalDirAllocator yet");
      }
      allocator.set(dirsService, new SsdFirstAppDirs((String) keyField.get(null), conf));
      LOG.info("mpCache: the NodeManager places applications' localized files and work dirs on"
          + " its SSD local dir while the SSD has room");
      return true;
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.warn("mpCache: the NodeManager places applications' files over all its local dirs as"
          + " stock Hadoop does: its allocator ({}.{}, reached through {}.{}) cannot be replaced"
          + " ({})", DIRS_SERVICE_CLASS, ALLOCATOR_FIELD, handler.getClass().getName(),
          DIRS_SERVICE_FIELD, e.toString());
      return false;
    }
  }

  private static Object read(Object owner, String name) throws ReflectiveOperationException {
    Field field = owner.getClass().getDeclaredField(name);
    field.setAccessible(true);
    return field.get(owner);
  }
}
