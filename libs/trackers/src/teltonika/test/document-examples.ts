/**
 * Frames copied by hand from the examples of Teltonika's public "Teltonika Data Sending Protocols" page
 * (wiki.teltonika-gps.com/view/Teltonika_Data_Sending_Protocols, formerly the "Codec" page). Each CRC was
 * checked against the stated one, so a typo here would show as a CRC failure rather than pass unnoticed.
 * Spaces separate fields and are stripped by `hexBytes`.
 */

/** Codec 8, first example: one record, all GPS fields zero, five IO elements. */
export const CODEC8_EXAMPLE_1 =
  '00000000 00000036 08 01' +
  ' 0000016B40D8EA30 01 00000000 00000000 0000 0000 00 0000' +
  ' 01 05 02 15 03 01 01 01 42 5E0F 01 F1 0000601A 01 4E 0000000000000000' +
  ' 01 0000C7CF';

/** Codec 8, third example: two records with one 1-byte IO element each. */
export const CODEC8_EXAMPLE_3 =
  '00000000 00000043 08 02' +
  ' 0000016B40D57B48 01 00000000 00000000 0000 0000 00 0000 01 01 01 01 00 00 00 00' +
  ' 0000016B40D5C198 01 00000000 00000000 0000 0000 00 0000 01 01 01 01 01 00 00 00' +
  ' 02 0000252C';

/** Codec 8 Extended, the current page's example: 2-byte ids and counts, an empty NX group. */
export const CODEC8E_EXAMPLE =
  '00000000 0000004A 8E 01' +
  ' 0000016B412CEE00 01 00000000 00000000 0000 0000 00 0000' +
  ' 0001 0005 0001 0001 01 0001 0011 001D 0001 0010 015E2C88' +
  ' 0002 000B 000000003544C87A 000E 000000001DD7E06A 0000' +
  ' 01 00002994';

/** Codec 8 Extended, the older revision's example: real coordinates and one 17-byte NX element (id 256). */
export const CODEC8E_EXAMPLE_WITH_NX =
  '00000000 0000005F 8E 01' +
  ' 0000015FBA40B620 00 0F0DCDE4 20959D30 008A 0000 06 0000' +
  ' 0000 0006 0001 00EF 00 0001 0011 001E 0001 0010 0000CBDF' +
  ' 0002 000B 000000003544C875 000E 0000000029BFE4D1' +
  ' 0001 0100 0011 0000000000000000000000000000000000' +
  ' 01 0000D153';

/** Codec 16: two records, 2-byte event id and IO ids, a generation type, 1-byte counts. */
export const CODEC16_EXAMPLE =
  '00000000 0000005F 10 02' +
  ' 0000016BDBC78330 00 00000000 00000000 0000 0000 00 0000 000B 05 04 02 0001 00 0003 00 02 000B 0027 0042 563A 00 00' +
  ' 0000016BDBC78718 00 00000000 00000000 0000 0000 00 0000 000B 05 04 02 0001 00 0003 00 02 000B 0026 0042 563A 00 00' +
  ' 02 00005FB3';

/** Codec 8 over UDP: length 0x3D, packet id CAFE, 0x01, AVL packet id 05, IMEI, data without a CRC. */
export const UDP_CODEC8_EXAMPLE =
  '003D CAFE 01 05 000F 333532303933303836343033363535' +
  ' 08 01 0000016B4F815B30 01 00000000 00000000 0000 0000 00 0000' +
  ' 01 03 02 15 03 01 01 01 42 5DBC 00 00 01';

/** The server's answer to UDP_CODEC8_EXAMPLE. */
export const UDP_ACK_EXAMPLE = '0005 CAFE 01 05 01';

/** The login the document's TCP walkthrough starts with: IMEI 356307042441013. */
export const LOGIN_EXAMPLE = '000F 333536333037303432343431303133';

/** Codec 12 command "getinfo". */
export const CODEC12_GETINFO_COMMAND = '00000000 0000000F 0C 01 05 00000007 676574696E666F 01 00004312';

/** The device's Codec 12 response to "getinfo", and its text as the document gives it. */
export const CODEC12_GETINFO_RESPONSE =
  '00000000 00000090 0C 01 06 00000088' +
  ' 494E493A323031392F372F323220373A3232205254433A323031392F372F323220373A3533205253543A32204552523A31' +
  '2053523A302042523A302043463A302046473A3020464C3A302054553A302F302055543A3020534D533A30204E4F4750' +
  '533A303A3330204750533A31205341543A302052533A332052463A36352053463A31204D443A30' +
  ' 01 0000C78F';
export const CODEC12_GETINFO_RESPONSE_TEXT =
  'INI:2019/7/22 7:22 RTC:2019/7/22 7:53 RST:2 ERR:1 SR:0 BR:0 CF:0 FG:0 FL:0 TU:0/0 UT:0 SMS:0' +
  ' NOGPS:0:30 GPS:1 SAT:0 RS:3 RF:65 SF:1 MD:0';

export function hexBytes(hex: string): Buffer {
  return Buffer.from(hex.replace(/\s+/g, ''), 'hex');
}

/** The `data` of a TCP frame (codec id .. second count), cut out by position, not by the code under test. */
export function tcpData(hex: string): Buffer {
  const frame = hexBytes(hex);
  return frame.subarray(8, frame.length - 4);
}
