#!/bin/sh
# The real image's health probe: the versions of each API the broker answers.
exec java -Xmx128m -Dlog4j.configuration=file:/opt/kafka/config/tools-log4j.properties \
  -cp '/opt/kafka/libs/*' kafka.admin.BrokerApiVersionsCommand "$@"
