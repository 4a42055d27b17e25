#!/usr/bin/env bash
# Local single-node Apache Kafka (KRaft, combined broker+controller) for
# development and integration tests -- no Docker needed, only a JDK 17+ and
# Maven (used once to download the Kafka jars from Maven Central).
#
# Usage: scripts/kafka.sh start|stop|status|reset|logs [-f]|fetch
#
#   start   start the broker (no-op if already running); the last line of
#           output is KAFKA_BROKERS=<host:port>
#   stop    stop the broker
#   status  exit 0 and print the address if the broker is up, else exit 1
#   reset   stop and wipe all broker data (the downloaded jars are kept)
#   logs    print the end of the broker log (-f to follow it)
#   fetch   only download the jars (if not cached yet) and print their folder
#           (the container test's Kafka stand-in image is built from them)
#
# Environment (defaults in brackets):
#   KAFKA_PORT [9092]  KAFKA_CONTROLLER_PORT [9093]  KAFKA_VERSION [3.9.2]
#   KAFKA_CACHE_DIR [${XDG_CACHE_HOME:-~/.cache}/fleet-telemetry/kafka-$KAFKA_VERSION]
#   KAFKA_DATA_DIR  [<repo>/.data/kafka]
#   KAFKA_HEAP_OPTS [-Xms1g -Xmx1g]  KAFKA_START_TIMEOUT [90] (seconds)
#   JAVA_HOME (optional; otherwise `java` from PATH)
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

KAFKA_PORT="${KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${KAFKA_CONTROLLER_PORT:-9093}"
KAFKA_VERSION="${KAFKA_VERSION:-3.9.2}"
# Kafka 3.9.x is built against slf4j 1.7.36 and ships reload4j as its log4j 1.x
# backend; matching that keeps -Dlog4j.configuration working as documented.
SLF4J_VERSION="1.7.36"
RELOAD4J_VERSION="1.2.25"
KAFKA_CACHE_DIR="${KAFKA_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fleet-telemetry/kafka-$KAFKA_VERSION}"
KAFKA_DATA_DIR="${KAFKA_DATA_DIR:-$REPO_ROOT/.data/kafka}"
# A fixed 1 GB heap (Kafka's own start script's default) and 4 MB G1 regions: with 256-512 MB and
# 1 MB regions, every produce request over 512 KB (a coalesced send of ingest's positions) was a
# "humongous" allocation that started a concurrent GC cycle, up to 266 in a minute of the trackers
# bench, and the broker's CPU swung between 13 % and 38 % of a core from run to run
# (docs/performance.md, "Tracker ports (issue 29)").
KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms1g -Xmx1g}"
KAFKA_START_TIMEOUT="${KAFKA_START_TIMEOUT:-90}"

JAVA="${JAVA_HOME:+$JAVA_HOME/bin/}java"
HOST=127.0.0.1
BOOTSTRAP="$HOST:$KAFKA_PORT"
LIBS_DIR="$KAFKA_CACHE_DIR/libs"
CACHE_STAMP="$KAFKA_CACHE_DIR/.complete"
CONFIG_FILE="$KAFKA_DATA_DIR/server.properties"
LOG4J_FILE="$KAFKA_DATA_DIR/log4j.properties"
TOOLS_LOG4J_FILE="$KAFKA_DATA_DIR/tools-log4j.properties"
LOG_DIR="$KAFKA_DATA_DIR/logs"
BROKER_LOG="$LOG_DIR/server.log"
STDOUT_LOG="$LOG_DIR/stdout.log"
STORAGE_DIR="$KAFKA_DATA_DIR/storage"
PID_FILE="$KAFKA_DATA_DIR/kafka.pid"

log() { echo "kafka.sh: $*" >&2; }
die() { log "$*"; exit 1; }

# --- process / port helpers -------------------------------------------------

port_open() {
  # bash's /dev/tcp avoids depending on nc/ss being installed.
  timeout 2 bash -c "exec 3<>/dev/tcp/$HOST/$1" 2>/dev/null
}

# Prints the broker pid if the pid file points at a live Kafka JVM. Checking
# the command line guards against a stale pid file whose pid was reused.
broker_pid() {
  [[ -f "$PID_FILE" ]] || return 1
  local pid
  pid="$(<"$PID_FILE")"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q 'kafka\.Kafka' || return 1
  echo "$pid"
}

# Runs a Kafka CLI class from the cached jars, logging only warnings to stderr.
kafka_tool() {
  "$JAVA" -Xmx256m -Dlog4j.configuration="file:$TOOLS_LOG4J_FILE" \
    -cp "$LIBS_DIR/*" "$@"
}

# --- start steps ------------------------------------------------------------

fetch_jars() {
  [[ -f "$CACHE_STAMP" ]] && return 0
  command -v mvn >/dev/null || die "mvn not found; it is needed once to download Kafka $KAFKA_VERSION"
  log "downloading Kafka $KAFKA_VERSION jars into $LIBS_DIR (one-off) ..."
  mkdir -p "$KAFKA_CACHE_DIR"
  # kafka-tools holds TopicCommand/ConsoleConsumer in 3.9; its connect-runtime
  # dependency (Jetty, Jersey, ...) is only for Connect tooling, so skip it.
  cat >"$KAFKA_CACHE_DIR/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.fleet-telemetry</groupId>
  <artifactId>kafka-runtime</artifactId>
  <version>$KAFKA_VERSION</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>kafka_2.13</artifactId>
      <version>$KAFKA_VERSION</version>
    </dependency>
    <dependency>
      <groupId>org.apache.kafka</groupId>
      <artifactId>kafka-tools</artifactId>
      <version>$KAFKA_VERSION</version>
      <exclusions>
        <exclusion>
          <groupId>org.apache.kafka</groupId>
          <artifactId>connect-runtime</artifactId>
        </exclusion>
      </exclusions>
    </dependency>
    <dependency>
      <groupId>org.slf4j</groupId>
      <artifactId>slf4j-reload4j</artifactId>
      <version>$SLF4J_VERSION</version>
    </dependency>
    <dependency>
      <groupId>ch.qos.reload4j</groupId>
      <artifactId>reload4j</artifactId>
      <version>$RELOAD4J_VERSION</version>
    </dependency>
  </dependencies>
</project>
EOF
  # Start from an empty dir so an interrupted earlier run leaves no stray jars.
  rm -rf "$LIBS_DIR"
  # Maven's output goes to a file: even with -q it emits stray colour codes.
  if ! mvn -q -B -Dstyle.color=never -f "$KAFKA_CACHE_DIR/pom.xml" \
    dependency:copy-dependencies -DoutputDirectory="$LIBS_DIR" -DincludeScope=runtime \
    >"$KAFKA_CACHE_DIR/mvn.log" 2>&1; then
    tail -n 30 "$KAFKA_CACHE_DIR/mvn.log" >&2
    die "Maven could not fetch Kafka $KAFKA_VERSION (is Maven Central reachable?)"
  fi
  [[ -f "$LIBS_DIR/kafka_2.13-$KAFKA_VERSION.jar" ]] || die "kafka_2.13-$KAFKA_VERSION.jar missing after download"
  echo "$KAFKA_VERSION" >"$CACHE_STAMP"
}

write_config() {
  mkdir -p "$KAFKA_DATA_DIR" "$LOG_DIR" "$STORAGE_DIR"
  # Rewritten on every start so port changes apply. The storage was formatted
  # with --standalone (dynamic quorum), so the controller is found through
  # controller.quorum.bootstrap.servers; 3.9 rejects --standalone together
  # with the static controller.quorum.voters.
  cat >"$CONFIG_FILE" <<EOF
# Generated by scripts/kafka.sh -- edits are overwritten on the next start.
process.roles=broker,controller
node.id=1
listeners=PLAINTEXT://$HOST:$KAFKA_PORT,CONTROLLER://$HOST:$KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$HOST:$KAFKA_PORT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.listener.names=CONTROLLER
controller.quorum.bootstrap.servers=$HOST:$KAFKA_CONTROLLER_PORT
log.dirs=$STORAGE_DIR

# Single node: every internal topic can only have one replica.
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
# Tests should not wait for consumer groups to settle or hit typo'd topics.
group.initial.rebalance.delay.ms=0
auto.create.topics.enable=false

# Keep a dev laptop / CI runner happy: few threads, small segments, short retention.
num.network.threads=2
num.io.threads=4
num.recovery.threads.per.data.dir=1
log.segment.bytes=67108864
log.retention.hours=24
log.retention.check.interval.ms=300000
offsets.topic.num.partitions=10
EOF

  cat >"$LOG4J_FILE" <<EOF
log4j.rootLogger=INFO, file
log4j.appender.file=org.apache.log4j.RollingFileAppender
log4j.appender.file.File=$BROKER_LOG
log4j.appender.file.MaxFileSize=10MB
log4j.appender.file.MaxBackupIndex=2
log4j.appender.file.layout=org.apache.log4j.PatternLayout
log4j.appender.file.layout.ConversionPattern=[%d] %p %m (%c)%n
# These are chatty at INFO and rarely useful locally.
log4j.logger.kafka.request.logger=WARN
log4j.logger.state.change.logger=WARN
log4j.logger.kafka.log.LogCleaner=WARN
log4j.logger.org.apache.kafka.clients=WARN
EOF

  cat >"$TOOLS_LOG4J_FILE" <<'EOF'
log4j.rootLogger=WARN, stderr
log4j.appender.stderr=org.apache.log4j.ConsoleAppender
log4j.appender.stderr.Target=System.err
log4j.appender.stderr.layout=org.apache.log4j.PatternLayout
log4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n
EOF
}

format_storage() {
  [[ -f "$STORAGE_DIR/meta.properties" ]] && return 0
  local cluster_id
  cluster_id="$(kafka_tool kafka.tools.StorageTool random-uuid)"
  log "formatting storage in $STORAGE_DIR (cluster id $cluster_id)"
  kafka_tool kafka.tools.StorageTool format --standalone \
    -t "$cluster_id" -c "$CONFIG_FILE" >/dev/null
}

launch_broker() {
  log "starting Kafka $KAFKA_VERSION on $BOOTSTRAP (log: $BROKER_LOG)"
  # setsid + nohup detach the JVM from this shell so Ctrl-C or closing the
  # terminal that ran `start` does not take the broker down. Both exec, so $!
  # is the JVM's own pid.
  # shellcheck disable=SC2086 # KAFKA_HEAP_OPTS is a list of JVM flags
  nohup setsid "$JAVA" $KAFKA_HEAP_OPTS \
    -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:G1HeapRegionSize=4m -Djava.awt.headless=true \
    -Dlog4j.configuration="file:$LOG4J_FILE" -Dkafka.logs.dir="$LOG_DIR" \
    -cp "$LIBS_DIR/*" kafka.Kafka "$CONFIG_FILE" \
    >"$STDOUT_LOG" 2>&1 </dev/null &
  echo $! >"$PID_FILE"
}

wait_ready() {
  local pid="$1" deadline=$((SECONDS + KAFKA_START_TIMEOUT))
  while ((SECONDS < deadline)); do
    kill -0 "$pid" 2>/dev/null || { log "broker process exited during startup"; show_failure; }
    # An open port is not enough: the listener comes up before the broker has
    # caught up with the metadata log, so also ask for real metadata.
    if port_open "$KAFKA_PORT" &&
      timeout 30 "$JAVA" -Xmx128m -Dlog4j.configuration="file:$TOOLS_LOG4J_FILE" -cp "$LIBS_DIR/*" \
        org.apache.kafka.tools.TopicCommand --bootstrap-server "$BOOTSTRAP" --list >/dev/null 2>&1; then
      return 0
    fi
    sleep 1
  done
  log "broker not ready after ${KAFKA_START_TIMEOUT}s"
  show_failure
}

show_failure() {
  log "last 50 lines of $BROKER_LOG:"
  tail -n 50 "$BROKER_LOG" >&2 2>/dev/null || true
  if [[ -s "$STDOUT_LOG" ]]; then
    log "last 20 lines of $STDOUT_LOG:"
    tail -n 20 "$STDOUT_LOG" >&2
  fi
  # Don't leave a half-started JVM behind: the next start should begin clean.
  cmd_stop
  exit 1
}

# --- subcommands ------------------------------------------------------------

cmd_start() {
  local pid
  if pid="$(broker_pid)"; then
    # Ours is alive: either already serving, or still booting from an earlier
    # start -- in both cases wait rather than launch a second JVM.
    port_open "$KAFKA_PORT" || wait_ready "$pid"
    log "already running (pid $pid)"
    echo "KAFKA_BROKERS=$BOOTSTRAP"
    return 0
  fi
  rm -f "$PID_FILE"
  command -v "$JAVA" >/dev/null || die "java not found (need JDK 17+; set JAVA_HOME or PATH)"
  port_open "$KAFKA_PORT" && die "port $KAFKA_PORT is in use by another process; set KAFKA_PORT"
  port_open "$KAFKA_CONTROLLER_PORT" && die "port $KAFKA_CONTROLLER_PORT is in use by another process; set KAFKA_CONTROLLER_PORT"

  local t0=$SECONDS
  fetch_jars
  write_config
  format_storage
  launch_broker
  wait_ready "$(<"$PID_FILE")"
  log "ready after $((SECONDS - t0))s"
  echo "KAFKA_BROKERS=$BOOTSTRAP"
}

cmd_stop() {
  local pid
  if ! pid="$(broker_pid)"; then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  log "stopping broker (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  # SIGTERM triggers a controlled shutdown that flushes logs; only force-kill
  # if that hangs.
  local i
  for ((i = 0; i < 150; i++)); do # 150 x 0.2s = 30s
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.2
  done
  if kill -0 "$pid" 2>/dev/null; then
    log "still alive after 30s, sending SIGKILL"
    kill -KILL "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
  fi
  rm -f "$PID_FILE"
}

cmd_status() {
  local pid
  if pid="$(broker_pid)" && port_open "$KAFKA_PORT"; then
    echo "running on $BOOTSTRAP (pid $pid)"
    return 0
  fi
  echo "not running"
  return 1
}

cmd_reset() {
  cmd_stop
  log "deleting $KAFKA_DATA_DIR"
  rm -rf "$KAFKA_DATA_DIR"
}

cmd_logs() {
  [[ -f "$BROKER_LOG" ]] || die "no broker log yet at $BROKER_LOG"
  if [[ "${1:-}" == "-f" ]]; then
    exec tail -n 100 -F "$BROKER_LOG"
  fi
  tail -n 100 "$BROKER_LOG"
}

usage() {
  sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}" >&2
  exit 2
}

case "${1:-}" in
  start) cmd_start ;;
  stop) cmd_stop ;;
  status) cmd_status ;;
  reset) cmd_reset ;;
  logs) shift; cmd_logs "$@" ;;
  fetch) fetch_jars; echo "$LIBS_DIR" ;;
  *) usage ;;
esac
