import { isAbaRoutingNumber } from './aba';

describe('ABA routing numbers', () => {
  it.each(['011000015', '021000021', '121000358'])('accepts %s', (routing) => {
    expect(isAbaRoutingNumber(routing)).toBe(true);
  });

  it.each(['011000016', '123456789', '01100001', '0110000150', 'abcdefghi', 11000015])(
    'refuses %p',
    (routing) => {
      expect(isAbaRoutingNumber(routing)).toBe(false);
    },
  );
});
