// Every data file of schemas/pscheduler/, imported so that esbuild bundles them into dist/server.js and
// dist/cli.js (an installed extension reads nothing from disk for them). The list is checked against the folder by
// test/unit/pscheduler/catalog.test.ts.
import archiverBitbucket from '../../../../schemas/pscheduler/archiver-bitbucket.json';
import archiverEsmond from '../../../../schemas/pscheduler/archiver-esmond.json';
import archiverFailer from '../../../../schemas/pscheduler/archiver-failer.json';
import archiverHttp from '../../../../schemas/pscheduler/archiver-http.json';
import archiverKafka from '../../../../schemas/pscheduler/archiver-kafka.json';
import archiverPostgresql from '../../../../schemas/pscheduler/archiver-postgresql.json';
import archiverRabbitmq from '../../../../schemas/pscheduler/archiver-rabbitmq.json';
import archiverSnmptrap from '../../../../schemas/pscheduler/archiver-snmptrap.json';
import archiverSyslog from '../../../../schemas/pscheduler/archiver-syslog.json';
import archiverTcp from '../../../../schemas/pscheduler/archiver-tcp.json';
import archiverUdp from '../../../../schemas/pscheduler/archiver-udp.json';
import contextChangefail from '../../../../schemas/pscheduler/context-changefail.json';
import contextChangenothing from '../../../../schemas/pscheduler/context-changenothing.json';
import contextLinuxnns from '../../../../schemas/pscheduler/context-linuxnns.json';
import contextLinuxvrf from '../../../../schemas/pscheduler/context-linuxvrf.json';
import testClock from '../../../../schemas/pscheduler/test-clock.json';
import testDhcp from '../../../../schemas/pscheduler/test-dhcp.json';
import testDiskToDisk from '../../../../schemas/pscheduler/test-disk-to-disk.json';
import testDns from '../../../../schemas/pscheduler/test-dns.json';
import testDot1x from '../../../../schemas/pscheduler/test-dot1x.json';
import testHttp from '../../../../schemas/pscheduler/test-http.json';
import testIdle from '../../../../schemas/pscheduler/test-idle.json';
import testIdlebgm from '../../../../schemas/pscheduler/test-idlebgm.json';
import testIdleex from '../../../../schemas/pscheduler/test-idleex.json';
import testLatency from '../../../../schemas/pscheduler/test-latency.json';
import testLatencybg from '../../../../schemas/pscheduler/test-latencybg.json';
import testMtu from '../../../../schemas/pscheduler/test-mtu.json';
import testNetreach from '../../../../schemas/pscheduler/test-netreach.json';
import testNoop from '../../../../schemas/pscheduler/test-noop.json';
import testOpenports from '../../../../schemas/pscheduler/test-openports.json';
import testPsresponse from '../../../../schemas/pscheduler/test-psresponse.json';
import testRtt from '../../../../schemas/pscheduler/test-rtt.json';
import testS3throughput from '../../../../schemas/pscheduler/test-s3throughput.json';
import testSimplestream from '../../../../schemas/pscheduler/test-simplestream.json';
import testSnmpget from '../../../../schemas/pscheduler/test-snmpget.json';
import testSnmpgetbgm from '../../../../schemas/pscheduler/test-snmpgetbgm.json';
import testSnmpset from '../../../../schemas/pscheduler/test-snmpset.json';
import testThroughput from '../../../../schemas/pscheduler/test-throughput.json';
import testTrace from '../../../../schemas/pscheduler/test-trace.json';
import testWifibssid from '../../../../schemas/pscheduler/test-wifibssid.json';
import toolBssidscanner from '../../../../schemas/pscheduler/tool-bssidscanner.json';
import toolBwctliperf2 from '../../../../schemas/pscheduler/tool-bwctliperf2.json';
import toolBwctliperf3 from '../../../../schemas/pscheduler/tool-bwctliperf3.json';
import toolBwctlping from '../../../../schemas/pscheduler/tool-bwctlping.json';
import toolBwctltracepath from '../../../../schemas/pscheduler/tool-bwctltracepath.json';
import toolBwctltraceroute from '../../../../schemas/pscheduler/tool-bwctltraceroute.json';
import toolCurlD2d from '../../../../schemas/pscheduler/tool-curl-d2d.json';
import toolCurl from '../../../../schemas/pscheduler/tool-curl.json';
import toolDhclient from '../../../../schemas/pscheduler/tool-dhclient.json';
import toolDnspy from '../../../../schemas/pscheduler/tool-dnspy.json';
import toolDublinTraceroute from '../../../../schemas/pscheduler/tool-dublin-traceroute.json';
import toolEthr from '../../../../schemas/pscheduler/tool-ethr.json';
import toolFpingreach from '../../../../schemas/pscheduler/tool-fpingreach.json';
import toolFwmtu from '../../../../schemas/pscheduler/tool-fwmtu.json';
import toolGlobus from '../../../../schemas/pscheduler/tool-globus.json';
import toolHalfping from '../../../../schemas/pscheduler/tool-halfping.json';
import toolIperf2 from '../../../../schemas/pscheduler/tool-iperf2.json';
import toolIperf3 from '../../../../schemas/pscheduler/tool-iperf3.json';
import toolNetSnmpSet from '../../../../schemas/pscheduler/tool-net-snmp-set.json';
import toolNmapreach from '../../../../schemas/pscheduler/tool-nmapreach.json';
import toolNmapscan from '../../../../schemas/pscheduler/tool-nmapscan.json';
import toolNuttcp from '../../../../schemas/pscheduler/tool-nuttcp.json';
import toolOwping from '../../../../schemas/pscheduler/tool-owping.json';
import toolParisTraceroute from '../../../../schemas/pscheduler/tool-paris-traceroute.json';
import toolPassthrough from '../../../../schemas/pscheduler/tool-passthrough.json';
import toolPing from '../../../../schemas/pscheduler/tool-ping.json';
import toolPowstream from '../../../../schemas/pscheduler/tool-powstream.json';
import toolPsclock from '../../../../schemas/pscheduler/tool-psclock.json';
import toolPstimer from '../../../../schemas/pscheduler/tool-pstimer.json';
import toolPsurl from '../../../../schemas/pscheduler/tool-psurl.json';
import toolPysnmp from '../../../../schemas/pscheduler/tool-pysnmp.json';
import toolS3Benchmark from '../../../../schemas/pscheduler/tool-s3-benchmark.json';
import toolSimplestreamer from '../../../../schemas/pscheduler/tool-simplestreamer.json';
import toolSleep from '../../../../schemas/pscheduler/tool-sleep.json';
import toolSleepbgm from '../../../../schemas/pscheduler/tool-sleepbgm.json';
import toolSnooze from '../../../../schemas/pscheduler/tool-snooze.json';
import toolTcpping from '../../../../schemas/pscheduler/tool-tcpping.json';
import toolTracemtu from '../../../../schemas/pscheduler/tool-tracemtu.json';
import toolTracepath from '../../../../schemas/pscheduler/tool-tracepath.json';
import toolTraceroute from '../../../../schemas/pscheduler/tool-traceroute.json';
import toolTwping from '../../../../schemas/pscheduler/tool-twping.json';
import toolUmichwpa from '../../../../schemas/pscheduler/tool-umichwpa.json';
import types from '../../../../schemas/pscheduler/types.json';

export const TEST_FILES: unknown[] = [
  testClock,
  testDhcp,
  testDiskToDisk,
  testDns,
  testDot1x,
  testHttp,
  testIdle,
  testIdlebgm,
  testIdleex,
  testLatency,
  testLatencybg,
  testMtu,
  testNetreach,
  testNoop,
  testOpenports,
  testPsresponse,
  testRtt,
  testS3throughput,
  testSimplestream,
  testSnmpget,
  testSnmpgetbgm,
  testSnmpset,
  testThroughput,
  testTrace,
  testWifibssid,
];
export const ARCHIVER_FILES: unknown[] = [
  archiverBitbucket,
  archiverEsmond,
  archiverFailer,
  archiverHttp,
  archiverKafka,
  archiverPostgresql,
  archiverRabbitmq,
  archiverSnmptrap,
  archiverSyslog,
  archiverTcp,
  archiverUdp,
];
export const CONTEXT_FILES: unknown[] = [contextChangefail, contextChangenothing, contextLinuxnns, contextLinuxvrf];
export const TOOL_FILES: unknown[] = [
  toolBssidscanner,
  toolBwctliperf2,
  toolBwctliperf3,
  toolBwctlping,
  toolBwctltracepath,
  toolBwctltraceroute,
  toolCurlD2d,
  toolCurl,
  toolDhclient,
  toolDnspy,
  toolDublinTraceroute,
  toolEthr,
  toolFpingreach,
  toolFwmtu,
  toolGlobus,
  toolHalfping,
  toolIperf2,
  toolIperf3,
  toolNetSnmpSet,
  toolNmapreach,
  toolNmapscan,
  toolNuttcp,
  toolOwping,
  toolParisTraceroute,
  toolPassthrough,
  toolPing,
  toolPowstream,
  toolPsclock,
  toolPstimer,
  toolPsurl,
  toolPysnmp,
  toolS3Benchmark,
  toolSimplestreamer,
  toolSleep,
  toolSleepbgm,
  toolSnooze,
  toolTcpping,
  toolTracemtu,
  toolTracepath,
  toolTraceroute,
  toolTwping,
  toolUmichwpa,
];
export const TYPES_FILE: unknown = types;
