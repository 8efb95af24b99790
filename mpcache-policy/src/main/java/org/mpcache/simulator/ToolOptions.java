package org.mpcache.simulator;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;

import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;

/**
 * The {@code --name value} options and {@code --name} flags of one of mpCache's command-line
 * tools or benchmarks, parsed by commons-cli, with the usage it generates from them; every tool
 * takes {@code --help}.
 */
public final class ToolOptions {
  private static final int USAGE_WIDTH = 100;

  private final String syntax;
  private final Options options = new Options();
  private final Map<String, String> defaults = new HashMap<>();

  /** @param syntax how the tool is called, the usage's first line */
  public ToolOptions(String syntax) {
    this.syntax = syntax;
  }

  /**
   * {@code --name VALUE}, which {@link Values#value} gives as {@code defaultValue} when absent
   * (null: no default, none in the usage either).
   */
  public ToolOptions valued(String name, String valueName, String defaultValue,
      String description) {
    options.addOption(Option.builder().longOpt(name).hasArg().argName(valueName)
        .desc(defaultValue == null ? description
            : description + " (default " + defaultValue + ")").build());
    if (defaultValue != null) {
      defaults.put(name, defaultValue);
    }
    return this;
  }

  /** {@code --name} alone. */
  public ToolOptions flag(String name, String description) {
    options.addOption(Option.builder().longOpt(name).desc(description).build());
    return this;
  }

  /** The usage, the options in the order declared, then --help. */
  public String usage() {
    HelpFormatter formatter = new HelpFormatter();
    formatter.setOptionComparator(null);
    StringWriter text = new StringWriter();
    try (PrintWriter out = new PrintWriter(text)) {
      formatter.printHelp(out, USAGE_WIDTH, syntax, null, withHelp(), 2, 3, null, false);
    }
    return text.toString();
  }

  /**
   * The options {@code args} give; with {@code --help} among them, prints the usage and exits
   * with 0 instead.
   *
   * @throws IllegalArgumentException naming an unknown option, an option without its value or
   *     an argument that is no option's value
   */
  public Values parse(String[] args) {
    CommandLine line;
    try {
      // Whole names only: a prefix of an option is no option.
      line = DefaultParser.builder().setAllowPartialMatching(false).build()
          .parse(withHelp(), args);
    } catch (ParseException e) {
      throw new IllegalArgumentException(e.getMessage() + " (--help lists the options)");
    }
    if (line.hasOption("help")) {
      System.out.print(usage());
      System.exit(0);
    }
    if (!line.getArgList().isEmpty()) {
      throw new IllegalArgumentException("unexpected argument " + line.getArgList().get(0)
          + ": options are --name value or --name (--help lists them)");
    }
    return new Values(line);
  }

  private Options withHelp() {
    Options all = new Options();
    options.getOptions().forEach(all::addOption);
    return all.addOption(Option.builder().longOpt("help").desc("print this usage and exit")
        .build());
  }

  /** The options one call of the tool gives. */
  public final class Values {
    private final CommandLine line;

    private Values(CommandLine line) {
      this.line = line;
    }

    public boolean has(String name) {
      return line.hasOption(declared(name));
    }

    /** The option's value, else its default; null for neither. */
    public String value(String name) {
      return line.getOptionValue(declared(name), defaults.get(name));
    }

    /** A name the tool did not declare is its own mistake, not its user's. */
    private String declared(String name) {
      if (!options.hasLongOption(name)) {
        throw new IllegalStateException("no option --" + name + " declared");
      }
      return name;
    }
  }
}
