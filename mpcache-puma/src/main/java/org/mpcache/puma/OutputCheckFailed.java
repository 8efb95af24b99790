package org.mpcache.puma;

import java.io.IOException;

/** A benchmark's output does not match its input: the job computed a wrong answer. */
public class OutputCheckFailed extends IOException {
  private static final long serialVersionUID = 1L;

  public OutputCheckFailed(String benchmark, Object output, String problem) {
    super(benchmark + ": output " + output + " is wrong: " + problem);
  }
}
