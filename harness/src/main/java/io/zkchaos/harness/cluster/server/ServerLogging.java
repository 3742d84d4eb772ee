package io.zkchaos.harness.cluster.server;

/**
 * The servers' console log configuration, the same on every backend (a JVM here, a JVM on a host, a container): one
 * line per event, dated to the millisecond with the zone, so that every backend's {@code server.log} reads alike and
 * the servers' account ({@code checkers.servers}) parses it. ZooKeeper 3.8 and later log with Logback; the releases
 * before log with log4j 1.2, which gets the same format.
 */
public final class ServerLogging {

    /** The file name of the Logback configuration, in a server's directory (or its image's {@code conf/}). */
    public static final String LOGBACK_FILE = "logback.xml";
    /** The file name of the log4j 1.2 configuration, beside it. */
    public static final String LOG4J_FILE = "log4j.properties";
    /** The one line layout, in Logback's words (log4j's differs only in its names for level, thread and logger). */
    private static final String DATE = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX}";

    private ServerLogging() {
    }

    /** Logback's configuration: everything at INFO and above to the console. */
    public static String logback() {
        return """
                <configuration>
                  <appender name="OUT" class="ch.qos.logback.core.ConsoleAppender">
                    <encoder><pattern>%s %%-5level [%%thread] %%logger{0} - %%msg%%n</pattern></encoder>
                  </appender>
                  <root level="INFO"><appender-ref ref="OUT"/></root>
                </configuration>
                """.formatted(DATE);
    }

    /** log4j 1.2's configuration (releases before 3.8): the same lines. */
    public static String log4j() {
        return """
                log4j.rootLogger=INFO, OUT
                log4j.appender.OUT=org.apache.log4j.ConsoleAppender
                log4j.appender.OUT.layout=org.apache.log4j.PatternLayout
                log4j.appender.OUT.layout.ConversionPattern=%s %%-5p [%%t] %%c{1} - %%m%%n
                """.formatted(DATE);
    }
}
