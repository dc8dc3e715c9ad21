package dev.srt.operator.api;

/**
 * What an SSH host and user may be (spec.ssh.host and .user, and each proxyJump hop's), as regular
 * expressions shared by the CRD's CEL rules and the Java validator, so that both refuse the same.
 * A host is a DNS host name (RFC 1123: dot-separated labels of letters, digits and '-', neither
 * starting nor ending with '-', at most 63 characters each), an IPv4 address or an IPv6 address
 * without brackets; a name of digits and dots only must be an IPv4 address. A user is a POSIX-style
 * login name of at most 32 characters. Neither can hold a space, a control character, '@' or a
 * leading '-', so neither can be read as an option, a second destination or a new line of a
 * message. The expressions use no backslash, so they read the same in Java and in a CEL string.
 */
public final class SshNames {
  private SshNames() {}

  private static final String LABEL = "[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?";
  private static final String OCTET = "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])";
  private static final String IPV4_BODY = OCTET + "([.]" + OCTET + "){3}";
  private static final String H = "[0-9A-Fa-f]{1,4}";
  /** Every form of RFC 4291 section 2.2: full, compressed with '::', and with an IPv4 tail. */
  private static final String IPV6_BODY = "("
      + "(" + H + ":){7}" + H
      + "|(" + H + ":){1,7}:"
      + "|(" + H + ":){1,6}:" + H
      + "|(" + H + ":){1,5}(:" + H + "){1,2}"
      + "|(" + H + ":){1,4}(:" + H + "){1,3}"
      + "|(" + H + ":){1,3}(:" + H + "){1,4}"
      + "|(" + H + ":){1,2}(:" + H + "){1,5}"
      + "|" + H + ":(:" + H + "){1,6}"
      + "|:(:" + H + "){1,7}"
      + "|::"
      + "|(" + H + ":){6}" + IPV4_BODY
      + "|::(" + H + ":){0,5}" + IPV4_BODY
      + "|(" + H + ":){1}:(" + H + ":){0,4}" + IPV4_BODY
      + "|(" + H + ":){2}:(" + H + ":){0,3}" + IPV4_BODY
      + "|(" + H + ":){3}:(" + H + ":){0,2}" + IPV4_BODY
      + "|(" + H + ":){4}:(" + H + ":){0,1}" + IPV4_BODY
      + "|(" + H + ":){5}:" + IPV4_BODY
      + ")";

  /** A DNS host name, an IPv4 address or a bracketless IPv6 address (see {@link #NUMERIC}). */
  public static final String HOST = "^(" + LABEL + "([.]" + LABEL + ")*|" + IPV6_BODY + ")$";
  /** Digits and dots only: such a host must be an {@link #IPV4} address, not a host name. */
  public static final String NUMERIC = "^[0-9.]+$";
  public static final String IPV4 = "^" + IPV4_BODY + "$";
  /** A POSIX-style user name: lower-case letters, digits, '_', '.', '-' (not first), an optional final '$'; 1 to 32 characters. */
  public static final String USER = "^[a-z_]([a-z0-9_.-]{0,31}|[a-z0-9_.-]{0,30}[$])$";

  public static final String HOST_MESSAGE = "must be a DNS host name (RFC 1123: dot-separated labels of letters, digits and '-', "
      + "not starting or ending with '-'), an IPv4 address or an IPv6 address without brackets";
  public static final String USER_MESSAGE = "must be a user name: lower-case letters, digits, '_', '.' and '-', not starting with "
      + "a digit, '.' or '-', optionally ending in '$', at most 32 characters";

  /** The CEL rule of an ssh block's or a hop's host (absent: the schema's required says so). */
  public static final String CEL_SSH_HOST = "!has(self.host) || (self.host.matches('" + HOST + "') && (!self.host.matches('" + NUMERIC
      + "') || self.host.matches('" + IPV4 + "')))";
  /** The CEL rule of an ssh block's or a hop's user. */
  public static final String CEL_SSH_USER = "!has(self.user) || self.user.matches('" + USER + "')";

  /** The Java check of {@link #HOST}, {@link #NUMERIC} and {@link #IPV4}. */
  public static boolean isHost(String host) {
    return host != null && HOST_PATTERN.matcher(host).matches()
        && (!NUMERIC_PATTERN.matcher(host).matches() || IPV4_PATTERN.matcher(host).matches());
  }

  public static boolean isUser(String user) {
    return user != null && USER_PATTERN.matcher(user).matches();
  }

  private static final java.util.regex.Pattern HOST_PATTERN = java.util.regex.Pattern.compile(HOST);
  private static final java.util.regex.Pattern NUMERIC_PATTERN = java.util.regex.Pattern.compile(NUMERIC);
  private static final java.util.regex.Pattern IPV4_PATTERN = java.util.regex.Pattern.compile(IPV4);
  private static final java.util.regex.Pattern USER_PATTERN = java.util.regex.Pattern.compile(USER);
}
