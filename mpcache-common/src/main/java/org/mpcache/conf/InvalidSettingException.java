package org.mpcache.conf;

/** A configuration value mpCache cannot use; the message names the key and the value. */
public class InvalidSettingException extends Exception {
  private final String key;

  public InvalidSettingException(String key, String problem) {
    super(key + ": " + problem);
    this.key = key;
  }

  public String getKey() {
    return key;
  }
}
