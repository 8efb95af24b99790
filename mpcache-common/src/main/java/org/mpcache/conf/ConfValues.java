package org.mpcache.conf;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.util.StringUtils;

/**
 * Reads typed values of mpCache keys, naming the key and the value when one cannot be used.
 * Public for the other mpCache modules' keys.
 */
public final class ConfValues {
  private ConfValues() {
  }

  static int nonNegativeInt(Configuration conf, String key, int defaultValue)
      throws InvalidSettingException {
    int value = parsed(conf, key, Integer.toString(defaultValue), Integer::valueOf, "an integer");
    if (value < 0) {
      throw new InvalidSettingException(key, "must be >= 0, got " + value);
    }
    return value;
  }

  static double nonNegativeDouble(Configuration conf, String key, double defaultValue)
      throws InvalidSettingException {
    double value = parsed(conf, key, Double.toString(defaultValue), Double::valueOf, "a number");
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new InvalidSettingException(key, "must be a finite number >= 0, got " + value);
    }
    return value;
  }

  static double share(Configuration conf, String key, double defaultValue)
      throws InvalidSettingException {
    double value = nonNegativeDouble(conf, key, defaultValue);
    if (value > 1) {
      throw new InvalidSettingException(key, "must be a share in [0, 1], got " + value);
    }
    return value;
  }

  /** Positive whole numbers, comma-separated; empty for none. */
  static int[] positiveInts(Configuration conf, String key, String defaultValue)
      throws InvalidSettingException {
    String raw = conf.getTrimmed(key, defaultValue);
    try {
      int[] values = Arrays.stream(StringUtils.getTrimmedStrings(raw))
          .mapToInt(Integer::parseInt).toArray();
      if (Arrays.stream(values).anyMatch(value -> value <= 0)) {
        throw new NumberFormatException();
      }
      return values;
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(key, "must be positive whole numbers, comma-separated,"
          + " got '" + raw + "'");
    }
  }

  static double positiveDouble(Configuration conf, String key, double defaultValue)
      throws InvalidSettingException {
    double value = nonNegativeDouble(conf, key, defaultValue);
    if (value == 0) {
      throw new InvalidSettingException(key, "must be above 0, got 0");
    }
    return value;
  }

  /**
   * The secret in the file the key names, as Hadoop's daemons share
   * {@code hadoop.http.authentication.signature.secret.file}: its bytes, without a trailing line
   * end; null when the key is unset. A file every user may read keeps no secret: refused.
   */
  public static byte[] secretFile(Configuration conf, String key, int minBytes)
      throws InvalidSettingException {
    String path = conf.getTrimmed(key, "");
    if (path.isEmpty()) {
      return null;
    }
    Path file = Paths.get(path);
    byte[] secret;
    try {
      if (Files.getFileAttributeView(file, PosixFileAttributeView.class) != null
          && Files.getPosixFilePermissions(file).contains(PosixFilePermission.OTHERS_READ)) {
        throw new InvalidSettingException(key, path + " is readable by every user; let only the"
            + " daemons' users read it (for example mode 0440, group hadoop)");
      }
      secret = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new InvalidSettingException(key, "cannot read " + path + ": " + e);
    }
    int length = secret.length;
    while (length > 0 && (secret[length - 1] == '\n' || secret[length - 1] == '\r')) {
      length--;
    }
    if (length < minBytes) {
      throw new InvalidSettingException(key, path + " holds " + length + " bytes; a secret"
          + " needs at least " + minBytes);
    }
    return Arrays.copyOf(secret, length);
  }

  private static <T> T parsed(Configuration conf, String key, String defaultValue,
      Function<String, T> parser, String what) throws InvalidSettingException {
    String raw = conf.getTrimmed(key, defaultValue);
    try {
      return parser.apply(raw);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(key, "cannot parse '" + raw + "' as " + what);
    }
  }

  /** A duration with an optional unit suffix (ms, s, m, h, d; milliseconds without), above 0. */
  public static long positiveMillis(Configuration conf, String key, long defaultMillis)
      throws InvalidSettingException {
    return positiveMillis(conf, key, defaultMillis, TimeUnit.MILLISECONDS);
  }

  /** A duration in milliseconds, above 0; a bare number is in {@code bareUnit}. */
  static long positiveMillis(Configuration conf, String key, long defaultMillis,
      TimeUnit bareUnit) throws InvalidSettingException {
    long value = nonNegativeMillis(conf, key, defaultMillis, bareUnit);
    if (value == 0) {
      throw new InvalidSettingException(key, "must be above 0, got '" + conf.getTrimmed(key)
          + "'");
    }
    return value;
  }

  /** A duration with an optional unit suffix (ms, s, m, h, d; milliseconds without), 0 or more. */
  static long nonNegativeMillis(Configuration conf, String key, long defaultMillis)
      throws InvalidSettingException {
    return nonNegativeMillis(conf, key, defaultMillis, TimeUnit.MILLISECONDS);
  }

  private static long nonNegativeMillis(Configuration conf, String key, long defaultMillis,
      TimeUnit bareUnit) throws InvalidSettingException {
    String raw = conf.getTrimmed(key, defaultMillis + "ms");
    long value;
    try {
      value = conf.getTimeDuration(key, defaultMillis + "ms", bareUnit, TimeUnit.MILLISECONDS);
    } catch (NumberFormatException e) {
      throw new InvalidSettingException(key,
          "cannot parse '" + raw + "' as a duration (examples: 3s, 500ms, 1m)");
    }
    if (value < 0) {
      throw new InvalidSettingException(key, "must not be negative, got '" + raw + "'");
    }
    return value;
  }

  /**
   * A size in bytes with an optional suffix (k, m, g, t, p), 0 or more; {@code zeroMeans} says
   * what 0 stands for in the message.
   */
  static long nonNegativeBytes(Configuration conf, String key, long defaultValue,
      String zeroMeans) throws InvalidSettingException {
    String raw = conf.getTrimmed(key, Long.toString(defaultValue));
    long value;
    try {
      value = conf.getLongBytes(key, defaultValue);
    } catch (IllegalArgumentException e) {
      throw new InvalidSettingException(key, "cannot parse '" + raw
          + "' as a size in bytes (examples: 8589934592, 8g, 512m)");
    }
    if (value < 0) {
      throw new InvalidSettingException(key, "must be >= 0 (" + zeroMeans + "), got '" + raw
          + "'");
    }
    return value;
  }

  /** One of {@code choices}, case-insensitively, returned in lower case. */
  static String choice(Configuration conf, String key, String defaultValue, List<String> choices)
      throws InvalidSettingException {
    String raw = conf.getTrimmed(key, defaultValue).toLowerCase(Locale.ROOT);
    if (!choices.contains(raw)) {
      throw new InvalidSettingException(key, "'" + raw + "' is not one of " + choices);
    }
    return raw;
  }

  /** Comma-separated absolute paths (a file:// prefix is allowed); empty when the key is unset. */
  static List<File> absoluteDirs(Configuration conf, String key) throws InvalidSettingException {
    List<File> dirs = new ArrayList<>();
    for (String dir : conf.getTrimmedStringCollection(key)) {
      File file = new File(dir.startsWith("file://") ? dir.substring("file://".length()) : dir);
      if (!file.isAbsolute()) {
        throw new InvalidSettingException(key, "'" + dir + "' is not an absolute path");
      }
      dirs.add(file);
    }
    return dirs;
  }

  /** Comma-separated absolute HDFS paths; empty when the key is unset. */
  static List<String> hdfsPaths(Configuration conf, String key) throws InvalidSettingException {
    List<String> paths = new ArrayList<>();
    for (String path : conf.getTrimmedStringCollection(key)) {
      if (!path.startsWith("/")) {
        throw new InvalidSettingException(key, "'" + path + "' is not an absolute HDFS path"
            + " (it must start with /)");
      }
      paths.add(path);
    }
    return paths;
  }

  /** Comma-separated host:port pairs; empty when the key is unset. */
  static List<InetSocketAddress> addresses(Configuration conf, String key)
      throws InvalidSettingException {
    List<InetSocketAddress> addresses = new ArrayList<>();
    for (String raw : conf.getTrimmedStringCollection(key)) {
      try {
        InetSocketAddress address = NetUtils.createSocketAddr(raw, -1, key);
        if (address.getPort() <= 0) {
          throw new IllegalArgumentException("no port");
        }
        addresses.add(address);
      } catch (IllegalArgumentException e) {
        throw new InvalidSettingException(key, "'" + raw + "' is not a host:port address");
      }
    }
    return addresses;
  }
}
