// The pure parts of messages to families: the SMS segment counter (GSM-7 against UCS-2), a
// text cut to fit with its link, Greek mobiles as E.164, the centre's sender name, a guardian's
// channel and whether she can be reached, and the start's warning about the channels.
import { describe, expect, it } from 'vitest';
import { defaultNotifyBy, mobileE164, unreachable } from '../../domain/reach';
import { countSegments, fitSms } from '../../server/modules/messages/segments';
import { reportSignature, senderOf, signedReport } from '../../server/modules/messages/sms';
import { startWarnings } from '../../server/start-notes';

describe('SMS segments', () => {
  it('counts GSM-7 texts at 160 in one segment and 153 a part', () => {
    expect(countSegments('')).toEqual({ encoding: 'GSM-7', units: 0, segments: 0 });
    expect(countSegments('a'.repeat(160))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(countSegments('a'.repeat(161))).toEqual({ encoding: 'GSM-7', units: 161, segments: 2 });
    expect(countSegments('a'.repeat(306)).segments).toBe(2);
    expect(countSegments('a'.repeat(307)).segments).toBe(3);
  });

  it('counts the extension characters twice and keeps Greek capitals of the GSM alphabet in GSM-7', () => {
    expect(countSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
    expect(countSegments('€'.repeat(81)).segments).toBe(2);
    expect(countSegments('ΔΦΓΛΩΠΨΣΘΞ').encoding).toBe('GSM-7');
  });

  it('counts Greek lower case as UCS-2: 70 in one segment, 67 a part', () => {
    expect(countSegments('α'.repeat(70))).toEqual({ encoding: 'UCS-2', units: 70, segments: 1 });
    expect(countSegments('α'.repeat(71)).segments).toBe(2);
    expect(countSegments('α'.repeat(134)).segments).toBe(2);
    expect(countSegments('α'.repeat(135)).segments).toBe(3);
    // One Greek letter turns a Latin text into UCS-2.
    expect(countSegments(`${'a'.repeat(100)}ή`)).toEqual({ encoding: 'UCS-2', units: 101, segments: 2 });
  });

  it('cuts a text to fit, at a word, ending with an ellipsis and the link kept whole', () => {
    const text =
      'Η Κωνσταντίνα απουσίασε από το μάθημα Μαθηματικά Προσανατολισμού και Θετικών Σπουδών, Τρίτη 07/12/2027 στις 17:00, και ακόμη περισσότερα λόγια.';
    const link = 'https://demo.frontis.app/portal/attendance?child=12';
    const fitted = fitSms(text, 2, link);
    expect(countSegments(fitted).segments).toBeLessThanOrEqual(2);
    expect(fitted.endsWith(`… ${link}`)).toBe(true);
    expect(text.startsWith(fitted.slice(0, fitted.indexOf('…')))).toBe(true);
    // A text that fits is left as it is, its link after it.
    expect(fitSms('Απουσία σήμερα.', 2, link)).toBe(`Απουσία σήμερα. ${link}`);
    expect(fitSms('Απουσία σήμερα.', 1)).toBe('Απουσία σήμερα.');
  });
});

describe('addresses', () => {
  it('writes Greek mobiles as E.164 and refuses landlines and non-numbers', () => {
    expect(mobileE164('6971234567')).toBe('+306971234567');
    expect(mobileE164('697 123 4567')).toBe('+306971234567');
    expect(mobileE164('+30 697-123-4567')).toBe('+306971234567');
    expect(mobileE164('0030 6971234567')).toBe('+306971234567');
    expect(mobileE164('+44 7911 123456')).toBe('+447911123456');
    expect(mobileE164('2101234567')).toBeNull();
    expect(mobileE164('+30 210 1234567')).toBeNull();
    expect(mobileE164('697123')).toBeNull();
    expect(mobileE164('')).toBeNull();
    expect(mobileE164(null)).toBeNull();
  });

  it("defaults a guardian's channel to e-mail where known, else SMS, and says when no channel reaches her", () => {
    expect(defaultNotifyBy('a@example.gr')).toBe('EMAIL');
    expect(defaultNotifyBy('  ')).toBe('SMS');
    expect(unreachable({ notify_by: 'EMAIL', email: 'a@example.gr' })).toBe(false);
    expect(unreachable({ notify_by: 'EMAIL', email: null, phone: '6971234567' })).toBe(true);
    expect(unreachable({ notify_by: 'SMS', phone: '2101234567', email: 'a@example.gr' })).toBe(true);
    expect(unreachable({ notify_by: 'BOTH', phone: '6971234567' })).toBe(false);
    expect(unreachable({ notify_by: 'BOTH' })).toBe(true);
  });

  it("takes the centre's sender setting, else its name in Latin letters cut to 11", () => {
    expect(senderOf('Proodos', 'Φροντιστήριο Πρόοδος')).toBe('Proodos');
    expect(senderOf(null, 'Πρόοδος')).toBe('Proodos');
    expect(senderOf(null, 'Φροντιστήριο Πρόοδος')).toBe('Frontistiri');
    expect(senderOf(null, '***')).toBe('Frontis');
  });
});

describe('delivery report signatures', () => {
  it("follows Twilio's documented example", () => {
    // Twilio's example of validating a request (its helper libraries' snippets use the same)
    const url = 'https://mycompany.com/myapp.php?foo=1&bar=2';
    const params = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675310', Digits: '1234', From: '+14158675310', To: '+18005551212' };
    const expected = 'GvWf1cFY/Q7PnoempGyD5oXAezc=';
    expect(reportSignature('12345', url, params)).toBe(expected);
    expect(signedReport('12345', ['https://other.example', url], params, expected)).toBe(true);
    expect(signedReport('12345', [url], { ...params, Digits: '4321' }, expected)).toBe(false);
    expect(signedReport('12345', [url], params, undefined)).toBe(false);
  });
});

describe('the start warning', () => {
  it('warns once when neither channel is set, and names the one missing otherwise', () => {
    const sms = { smsUrl: 'https://api.twilio.com', smsAccount: 'AC1', smsToken: 't' };
    expect(startWarnings({})).toEqual([expect.stringContaining('neither SMTP_URL nor SMS_URL')]);
    expect(startWarnings({ smsUrl: 'https://api.twilio.com' })).toEqual([expect.stringContaining('neither SMTP_URL nor SMS_URL')]);
    expect(startWarnings({ smtpUrl: 'smtp://localhost' })).toEqual([expect.stringContaining('No SMS setting')]);
    expect(startWarnings(sms)).toEqual([expect.stringContaining('No mail setting')]);
    expect(startWarnings({ smtpUrl: 'smtp://localhost', ...sms })).toEqual([]);
  });
});
